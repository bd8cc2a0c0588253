import type { Schemas } from '../api/client';

type Alert = Schemas['AlertDto'];

const RULE_LABELS: Record<Alert['rule'], string> = {
  agreement_drift: 'Agreement drift',
  answer_shift: 'Answer shift',
  review_share_jump: 'Review share jump',
  gateway_failure_rate: 'Gateway failures',
};

/** The rule's name, with its question when it has one: "Agreement drift · department". */
export function alertTitle(alert: Pick<Alert, 'rule' | 'questionId'>): string {
  const rule = RULE_LABELS[alert.rule];
  return alert.questionId ? `${rule} · ${alert.questionId}` : rule;
}

/** The alerts still to act on (open or acknowledged), in the order the API gives: open first, then newest. */
export function activeAlerts<T extends Pick<Alert, 'status'>>(alerts: readonly T[]): T[] {
  return alerts.filter((alert) => alert.status !== 'closed');
}

/** Mantine colour of an alert's status badge. */
export function alertStatusColor(status: Alert['status']): string {
  return status === 'open' ? 'red' : status === 'acknowledged' ? 'yellow' : 'gray';
}
