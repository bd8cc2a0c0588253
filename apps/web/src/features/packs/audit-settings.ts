import type { Schemas } from '../../api/client';
import { formatPercent } from '../../lib/format';

type AuditSettings = Schemas['AuditSettingsDto'];
export type AuditStrategy = AuditSettings['strategy'];

/** The audit form's values: the rate as a percentage, as typed (Mantine's NumberInput gives '' when empty). */
export interface AuditForm {
  percent: number | string;
  strategy: AuditStrategy;
}

export function formFromSettings(settings: AuditSettings): AuditForm {
  return { percent: Number((settings.rate * 100).toFixed(4)), strategy: settings.strategy };
}

/**
 * The settings to send for a form, or the reason it cannot be sent. The percentage becomes the
 * API's rate (0..1), rounded to six decimals so that 7% is sent as 0.07, not 0.07000000000000001.
 */
export function settingsFromForm(
  form: AuditForm,
): { ok: true; settings: AuditSettings } | { ok: false; error: string } {
  const percent = typeof form.percent === 'number' ? form.percent : Number(form.percent);
  if (form.percent === '' || !Number.isFinite(percent) || percent < 0 || percent > 100)
    return { ok: false, error: 'Enter a percentage from 0 to 100' };
  return { ok: true, settings: { rate: Number((percent / 100).toFixed(6)), strategy: form.strategy } };
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
