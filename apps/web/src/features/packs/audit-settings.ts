import type { Schemas } from '../../api/client';
import { formatPercent } from '../../lib/format';
import { NOT_A_NUMBER, percentFromRate, rateFromPercent } from './percent-rate';

type AuditSettings = Schemas['AuditSettingsDto'];
export type AuditStrategy = AuditSettings['strategy'];

/**
 * The strategies the form offers, recommended first. The uncertainty draw's floor (every decision
 * keeps a share of the rate) is the server's AUDIT_FLOOR_SHARE, described here without its value.
 */
export const STRATEGY_OPTIONS: Array<{ value: AuditStrategy; label: string; description: string }> = [
  {
    value: 'uncertainty',
    label: 'By uncertainty (recommended)',
    description:
      'Less certain decisions are drawn more often; every decision keeps a share of the rate, so none is beyond the audit’s reach.',
  },
  { value: 'uniform', label: 'Uniform', description: 'Every decision has the same chance.' },
];

/** The audit form's values: the rate as a percentage, as typed (Mantine's NumberInput gives '' when empty). */
export interface AuditForm {
  percent: number | string;
  strategy: AuditStrategy;
}

export function formFromSettings(settings: AuditSettings): AuditForm {
  return { percent: percentFromRate(settings.rate), strategy: settings.strategy };
}

/**
 * The settings to send for a form (the percentage as the API's rate), or why it cannot be sent: only
 * a percentage that is not a number. Which rates are allowed is the server's to say, at the field.
 */
export function settingsFromForm(
  form: AuditForm,
): { ok: true; settings: AuditSettings } | { ok: false; error: string } {
  const rate = rateFromPercent(form.percent);
  if (rate === undefined) return { ok: false, error: NOT_A_NUMBER };
  return { ok: true, settings: { rate, strategy: form.strategy } };
}

/** Whether the form differs from the saved settings. */
export function auditChanged(form: AuditForm, saved: AuditSettings): boolean {
  const parsed = settingsFromForm(form);
  return !parsed.ok || parsed.settings.rate !== saved.rate || parsed.settings.strategy !== saved.strategy;
}

/** One sentence on what the saved settings do. */
export function auditSummary(settings: AuditSettings): string {
  if (settings.rate === 0) return 'Off: no evaluation is drawn for audit.';
  const share = formatPercent(settings.rate, 2);
  return settings.strategy === 'uniform'
    ? `About ${share} of automatic decisions are drawn for audit, each with the same chance.`
    : `About ${share} of automatic decisions are drawn for audit, more often where the judge is less sure.`;
}
