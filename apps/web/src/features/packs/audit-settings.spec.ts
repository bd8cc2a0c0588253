import { describe, expect, it } from '@jest/globals';
import {
  auditChanged,
  auditSummary,
  formFromSettings,
  settingsFromForm,
  STRATEGY_OPTIONS,
} from './audit-settings';

describe('audit settings form', () => {
  it('shows the rate as a percentage', () => {
    expect(formFromSettings({ rate: 0.05, strategy: 'uncertainty' })).toEqual({
      percent: 5,
      strategy: 'uncertainty',
    });
    expect(formFromSettings({ rate: 0.0725, strategy: 'uniform' }).percent).toBe(7.25);
  });

  it('sends the percentage as a rate from 0 to 1, without float noise', () => {
    // 7 / 100 is 0.07000000000000001 in binary floating point; the API gets 0.07.
    expect(settingsFromForm({ percent: 7, strategy: 'uniform' })).toEqual({
      ok: true,
      settings: { rate: 0.07, strategy: 'uniform' },
    });
    expect(settingsFromForm({ percent: '12.5', strategy: 'uncertainty' })).toEqual({
      ok: true,
      settings: { rate: 0.125, strategy: 'uncertainty' },
    });
    expect(settingsFromForm({ percent: 0, strategy: 'uncertainty' })).toMatchObject({
      settings: { rate: 0 },
    });
    expect(settingsFromForm({ percent: 100, strategy: 'uncertainty' })).toMatchObject({
      settings: { rate: 1 },
    });
  });

  it('converts only: a percentage the server refuses is sent, and only what is not a number stops', () => {
    expect(settingsFromForm({ percent: 150, strategy: 'uniform' })).toEqual({
      ok: true,
      settings: { rate: 1.5, strategy: 'uniform' },
    });
    for (const percent of ['', 'abc'])
      expect(settingsFromForm({ percent, strategy: 'uniform' })).toEqual({
        ok: false,
        error: 'Enter a number',
      });
  });

  it('knows when the form differs from the saved settings', () => {
    const saved = { rate: 0.05, strategy: 'uncertainty' as const };
    expect(auditChanged(formFromSettings(saved), saved)).toBe(false);
    expect(auditChanged({ percent: 6, strategy: 'uncertainty' }, saved)).toBe(true);
    expect(auditChanged({ percent: 5, strategy: 'uniform' }, saved)).toBe(true);
    expect(auditChanged({ percent: '', strategy: 'uncertainty' }, saved)).toBe(true);
  });

  it('says what the settings do', () => {
    expect(auditSummary({ rate: 0, strategy: 'uncertainty' })).toBe('Off: no evaluation is drawn for audit.');
    expect(auditSummary({ rate: 0.05, strategy: 'uniform' })).toBe(
      'About 5% of automatic decisions are drawn for audit, each with the same chance.',
    );
    expect(auditSummary({ rate: 0.125, strategy: 'uncertainty' })).toBe(
      'About 12.5% of automatic decisions are drawn for audit, more often where the judge is less sure.',
    );
  });

  it('offers both strategies and states no share of the server’s (the uncertainty draw’s floor)', () => {
    expect(STRATEGY_OPTIONS.map((option) => option.value)).toEqual(['uncertainty', 'uniform']);
    const descriptions = STRATEGY_OPTIONS.map((option) => option.description);
    expect(descriptions.filter((text) => /\d|half|third|quarter|fifth|tenth/i.test(text))).toEqual([]);
  });
});
