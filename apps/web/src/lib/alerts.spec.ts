import { describe, expect, it } from '@jest/globals';
import { activeAlerts, alertStatusColor, alertTitle } from './alerts';

describe('alerts', () => {
  it('names the rule, with its question when it has one', () => {
    expect(alertTitle({ rule: 'agreement_drift', questionId: 'department' })).toBe(
      'Agreement drift · department',
    );
    expect(alertTitle({ rule: 'gateway_failure_rate', questionId: null })).toBe('Gateway failures');
  });

  it('keeps the open and acknowledged alerts, in order', () => {
    const alerts = [
      { id: 'a', status: 'open' as const },
      { id: 'b', status: 'closed' as const },
      { id: 'c', status: 'acknowledged' as const },
    ];
    expect(activeAlerts(alerts).map((alert) => alert.id)).toEqual(['a', 'c']);
  });

  it('colours open red, acknowledged yellow, closed grey', () => {
    expect(['open', 'acknowledged', 'closed'].map((s) => alertStatusColor(s as never))).toEqual([
      'red',
      'yellow',
      'gray',
    ]);
  });
});
