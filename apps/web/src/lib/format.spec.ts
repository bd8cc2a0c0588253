import { describe, expect, it } from '@jest/globals';
import { countLabel, formatDateTime, formatPercent, shortId } from './format';

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
});
