import { Badge } from '@mantine/core';
import { STATUS_COLORS, type SimulationStatus, type TicketStatus } from '../../lib/simulations';

/** A status as text with a coloured dot (the text keeps the page's contrast in both schemes). */
export function StatusBadge({ status }: { status: SimulationStatus | TicketStatus }) {
  return (
    <Badge color={STATUS_COLORS[status]} variant="dot">
      {status}
    </Badge>
  );
}
