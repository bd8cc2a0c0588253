import { describe, expect, it } from '@jest/globals';
import { probabilityRows } from './probabilities';

describe('probabilityRows', () => {
  it('orders a choice as the question lists its options and marks the choice', () => {
    const rows = probabilityRows(
      { type: 'choice', choice: 'technical', probabilities: { legal: 0.1, technical: 0.7, billing: 0.2 } },
      ['billing', 'technical', 'legal'],
    );
    expect(rows.map((row) => row.label)).toEqual(['billing', 'technical', 'legal']);
    expect(rows.filter((row) => row.selected).map((row) => row.label)).toEqual(['technical']);
  });

  it('puts values the question does not list last, in the answer’s order', () => {
    const rows = probabilityRows(
      { type: 'choice', choice: 'b', probabilities: { z: 0.1, b: 0.6, y: 0.1, a: 0.2 } },
      ['a', 'b'],
    );
    expect(rows.map((row) => row.label)).toEqual(['a', 'b', 'z', 'y']);
    expect(
      probabilityRows({ type: 'choice', choice: 'x', probabilities: { y: 0.4, x: 0.6 } }).map(
        (row) => row.label,
      ),
    ).toEqual(['y', 'x']);
  });

  it('shows True then False for a boolean, and scores in numeric order', () => {
    expect(probabilityRows({ type: 'boolean', probability: 0.15 })).toEqual([
      { label: 'True', value: 0.15, percent: '15%', selected: false },
      { label: 'False', value: 0.85, percent: '85%', selected: true },
    ]);
    const score = probabilityRows({ type: 'score', score: 2, probabilities: { '10': 0.1, '2': 0.9 } });
    expect(score.map((row) => [row.label, row.selected])).toEqual([
      ['2', true],
      ['10', false],
    ]);
    expect(probabilityRows({ type: 'score', score: 2.5 })).toEqual([]);
  });

  it('writes every percentage with at most one decimal, within 0 and 100%', () => {
    const rows = probabilityRows({
      type: 'choice',
      choice: 'a',
      probabilities: { a: 0.66666, b: 0.33334, c: 1.2, d: Number.NaN },
    });
    expect(rows.map((row) => row.percent)).toEqual(['66.7%', '33.3%', '100%', '0%']);
  });
});
