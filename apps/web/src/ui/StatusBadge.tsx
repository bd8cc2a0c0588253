import { Badge } from '@mantine/core';
import { statusColor } from './status';

/** A status as text with a coloured dot (the text keeps the page's contrast in both schemes). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={statusColor(status)} variant="dot" style={{ minWidth: 'max-content' }}>
      {status}
    </Badge>
  );
}
