import { describe, expect, it } from '@jest/globals';
import { formatDateTime } from './format';
import { statusColor } from '../ui/status';

describe('formatDateTime', () => {
  it('formats a date and time, and keeps what is not a date', () => {
    expect(formatDateTime('2026-11-25T09:41:00Z')).toMatch(/2026/);
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});

describe('statusColor', () => {
  it('gives one colour per status and grey for an unknown one', () => {
    expect([statusColor('accept'), statusColor('completed'), statusColor('reject')]).toEqual([
      'teal',
      'teal',
      'red',
    ]);
    expect(statusColor('something new')).toBe('gray');
  });
});
