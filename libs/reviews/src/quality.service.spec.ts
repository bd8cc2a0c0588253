import { describe, expect, it } from '@jest/globals';
import { auditLabelsForMargin, qualityWindow } from './quality.service.js';

describe('qualityWindow', () => {
  const now = new Date('2026-11-28T23:30:00Z');

  it('is today and the 29 UTC days before by default', () => {
    expect(qualityWindow({}, now)).toEqual({ from: '2026-10-30', to: '2026-11-28' });
  });

  it('counts 30 days back from a given last day, and takes both days as given', () => {
    expect(qualityWindow({ to: '2026-03-01' }, now)).toEqual({ from: '2026-01-31', to: '2026-03-01' });
    expect(qualityWindow({ from: '2026-11-01', to: '2026-11-01' }, now)).toEqual({
      from: '2026-11-01',
      to: '2026-11-01',
    });
  });

  it('refuses a first day after the last, and a window over 366 days', () => {
    expect(() => qualityWindow({ from: '2026-11-02', to: '2026-11-01' }, now)).toThrow(
      'from must not be later than to',
    );
    // 2025-01-01 to 2026-01-01 is 366 days (2025 has 365, plus the last day): allowed; a day more is not.
    expect(qualityWindow({ from: '2025-01-01', to: '2026-01-01' }, now).from).toBe('2025-01-01');
    expect(() => qualityWindow({ from: '2024-12-31', to: '2026-01-01' }, now)).toThrow('366 days');
  });
});

describe('auditLabelsForMargin', () => {
  it('asks for z²/(4·0.05²) labels with none: 1.959964² / 0.01 = 384.15, so 385 at 95%', () => {
    expect(auditLabelsForMargin({ estimate: null, low: null, high: null, labels: 0 }, 0.95)).toBe(385);
  });

  it('scales the labels by the square of the half-width over the margin', () => {
    // Half-width 0.1 with 100 labels: 100·(0.1/0.05)² = 400 in all, 300 more.
    expect(auditLabelsForMargin({ estimate: 0.8, low: 0.7, high: 0.9, labels: 100 }, 0.95)).toBe(300);
    // Half-width 0.04: narrow enough.
    expect(auditLabelsForMargin({ estimate: 0.9, low: 0.86, high: 0.94, labels: 250 }, 0.95)).toBe(0);
  });
});
