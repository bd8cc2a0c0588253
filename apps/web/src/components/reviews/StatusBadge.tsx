import { Badge } from '@mantine/core';

const COLORS = { accept: 'green', review: 'yellow', reject: 'red' } as const;

export function StatusBadge({ status }: { status: keyof typeof COLORS }) {
  return (
    <Badge color={COLORS[status]} variant="dot" style={{ minWidth: 'max-content' }}>
      {status}
    </Badge>
  );
}
