import { describe, expect, it } from '@jest/globals';
import { historyIndex, historyStep } from './history-index';

describe('historyIndex', () => {
  it('reads the idx react-router writes into an entry', () => {
    expect(historyIndex({ usr: null, key: 'abc', idx: 3 })).toBe(3);
    expect(historyIndex({ idx: 0 })).toBe(0);
  });

  it('is null for an entry react-router did not write', () => {
    expect(historyIndex(null)).toBeNull();
    expect(historyIndex(undefined)).toBeNull();
    expect(historyIndex('state')).toBeNull();
    expect(historyIndex({ key: 'abc' })).toBeNull();
    expect(historyIndex({ idx: '2' })).toBeNull();
    expect(historyIndex({ idx: 1.5 })).toBeNull();
  });
});

describe('historyStep', () => {
  it('is negative for Back, positive for Forward and 0 back where it was', () => {
    expect(historyStep(4, { idx: 3 })).toBe(-1);
    expect(historyStep(4, { idx: 1 })).toBe(-3);
    expect(historyStep(4, { idx: 5 })).toBe(1);
    expect(historyStep(4, { idx: 4 })).toBe(0);
  });

  it('is null when either entry has no number', () => {
    expect(historyStep(null, { idx: 3 })).toBeNull();
    expect(historyStep(4, null)).toBeNull();
  });
});
