/** The app's status colours (Mantine colour names), one per status wherever it is shown. */
export const STATUS_COLORS: Record<string, string> = {
  // Evaluations and their decision.
  accept: 'teal',
  review: 'yellow',
  reject: 'red',
  // Simulations.
  queued: 'gray',
  running: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'orange',
  // Completion deliveries.
  pending: 'blue',
  succeeded: 'teal',
};

export function statusColor(status: string): string {
  return STATUS_COLORS[status] ?? 'gray';
}
