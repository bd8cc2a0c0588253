import { describe, expect, it } from '@jest/globals';
import {
  countLabel,
  formatCount,
  formatDateTime,
  formatPercent,
  formatWhen,
  shortId,
  totalText,
} from './format';

describe('formatDateTime', () => {
  it('formats a date, keeps what is not one, and marks a missing one', () => {
    expect(formatDateTime('2026-11-25T09:41:00Z')).toMatch(/2026/);
    expect(formatDateTime('not a date')).toBe('not a date');
    expect(formatDateTime(null)).toBe('—');
  });
});

describe('formatPercent', () => {
  it('rounds to the digits asked for, without trailing zeros', () => {
    expect(formatPercent(0.956)).toBe('96%');
    expect(formatPercent(0.12345, 1)).toBe('12.3%');
    expect(formatPercent(1, 1)).toBe('100%');
    expect(formatPercent(null)).toBe('—');
  });
});

describe('shortId', () => {
  it('keeps the first block of a UUID', () => {
    expect(shortId('3f1c9a6e-2b7d-4c1e-9f0a-6d2e8b4a7c51')).toBe('3f1c9a6e');
    expect(shortId('plain')).toBe('plain');
  });
});

describe('countLabel', () => {
  it('is singular for one only', () => {
    expect(countLabel(1, 'ticket')).toBe('1 ticket');
    expect(countLabel(0, 'ticket')).toBe('0 tickets');
  });

  it('separates thousands and takes an irregular plural', () => {
    expect(countLabel(1200, 'ticket')).toBe('1,200 tickets');
    expect(countLabel(2, 'failed delivery', 'failed deliveries')).toBe('2 failed deliveries');
  });
});

describe('formatCount', () => {
  it('separates thousands, as a capped total does', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(totalText(1000, true)).toBe('1,000+');
  });
});

describe('formatWhen', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('says never for a missing time', () => {
    expect(formatWhen(null, now)).toBe('Never');
  });

  it('is relative within a week', () => {
    expect(formatWhen('2026-11-21T11:59:40Z', now)).toBe('just now');
    expect(formatWhen('2026-11-21T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatWhen('2026-11-21T09:00:00Z', now)).toBe('3 hours ago');
    expect(formatWhen('2026-11-20T12:00:00Z', now)).toBe('yesterday');
    expect(formatWhen('2026-11-18T12:00:00Z', now)).toBe('3 days ago');
  });

  it('says how far off a time to come is', () => {
    expect(formatWhen('2026-11-21T12:05:00Z', now)).toBe('in 5 minutes');
    expect(formatWhen('2026-11-21T15:00:00Z', now)).toBe('in 3 hours');
    expect(formatWhen('2026-11-22T12:00:00Z', now)).toBe('tomorrow');
  });

  it('shows the date after a week', () => {
    expect(formatWhen('2026-10-01T12:00:00Z', now)).toMatch(/2026/);
  });

  it('treats a clock slightly ahead as now', () => {
    expect(formatWhen('2026-11-21T12:00:05Z', now)).toBe('just now');
  });
});
