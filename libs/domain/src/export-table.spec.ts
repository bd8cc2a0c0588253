import { describe, expect, it } from '@jest/globals';
import { answerCell } from './export-table.js';

describe('answerCell', () => {
  it('writes an answer as labels and expected answers do, and nothing without one', () => {
    expect(answerCell({ type: 'choice', choice: 'billing', probabilities: { billing: 0.9 } })).toBe(
      'billing',
    );
    expect(answerCell({ type: 'boolean', probability: 0.5 })).toBe('true');
    expect(answerCell({ type: 'boolean', probability: 0.49 })).toBe('false');
    expect(answerCell({ type: 'score', score: 4 })).toBe('4');
    expect(answerCell(undefined)).toBeNull();
    expect(answerCell(null)).toBeNull();
  });
});
