import { describe, expect, it } from '@jest/globals';
import { costText, formatUsd, unknownCostNote } from './cost';

describe('formatUsd', () => {
  it('keeps a cent’s fractions, and two decimals from a dollar', () => {
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.0012525)).toBe('$0.00125');
    expect(formatUsd(0.000045)).toBe('$0.000045');
    expect(formatUsd(0.75)).toBe('$0.75');
    expect(formatUsd(1)).toBe('$1.00');
    expect(formatUsd(1234.567)).toBe('$1,234.57');
  });
});

describe('costText and unknownCostNote', () => {
  it('shows a known cost as it is', () => {
    expect(costText({ costUsd: 0.75, unknownCostEvaluations: 0 })).toBe('$0.75');
    expect(costText({ costUsd: 0, unknownCostEvaluations: 0 })).toBe('$0');
    expect(unknownCostNote({ costUsd: 0.75, unknownCostEvaluations: 0 })).toBeNull();
  });

  it('never shows a partial sum as the whole, nor unknown as free', () => {
    expect(costText({ costUsd: 0.75, unknownCostEvaluations: 2 })).toBe('at least $0.75');
    expect(costText({ costUsd: 0, unknownCostEvaluations: 3 })).toBe('Unknown');
    expect(unknownCostNote({ costUsd: 0, unknownCostEvaluations: 1 })).toBe(
      '1 evaluation of unknown cost (no price for the model)',
    );
    expect(unknownCostNote({ costUsd: 0, unknownCostEvaluations: 1200 })).toBe(
      '1,200 evaluations of unknown cost (no price for the model)',
    );
  });
});
