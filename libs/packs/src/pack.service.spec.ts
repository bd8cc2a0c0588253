import { describe, expect, it } from '@jest/globals';
import type { PackDocument } from '@app/domain';
import { compareDocuments, differingPaths } from './pack.service.js';

const question = (id: string, extra: Record<string, unknown> = {}) =>
  ({
    type: 'boolean',
    id,
    name: id,
    instructions: '',
    criteria: {},
    review: { minSelectedProbability: 0.5 },
    ...extra,
  }) as PackDocument['questions'][number];

describe('compareDocuments', () => {
  it('lists added, removed and changed question ids', () => {
    const from: PackDocument = { questions: [question('a'), question('b'), question('c')] };
    const to: PackDocument = { questions: [question('a'), question('c', { name: 'C!' }), question('d')] };
    expect(compareDocuments(from, to)).toEqual({
      added: ['d'],
      removed: ['b'],
      changed: ['c'],
      changedPaths: { c: ['name'] },
    });
  });

  it('ignores key order and question order', () => {
    const a = question('a', { criteria: { description: 'x', outcomeWhenTrue: 'reject' } });
    const reordered = Object.fromEntries(
      Object.entries({ ...a, criteria: { outcomeWhenTrue: 'reject', description: 'x' } }).reverse(),
    );
    expect(
      compareDocuments(
        { questions: [a, question('b')] },
        { questions: [question('b'), reordered as typeof a] },
      ),
    ).toEqual({
      added: [],
      removed: [],
      changed: [],
      changedPaths: {},
    });
  });
});

describe('differingPaths', () => {
  it('names each changed value down to the leaf, relative to the question', () => {
    const from = {
      name: 'A',
      criteria: { options: [{ value: 'x' }, { value: 'y', description: 'old' }] },
      review: { minSelectedProbability: 0.5 },
    };
    const to = {
      name: 'A',
      criteria: { options: [{ value: 'x' }, { value: 'y', description: 'new' }, { value: 'z' }] },
      review: { minSelectedProbability: 0.7 },
      extra: true,
    };
    expect(differingPaths(from, to)).toEqual([
      'criteria.options.1.description',
      'criteria.options.2',
      'review.minSelectedProbability',
      'extra',
    ]);
  });

  it('gives a key only on one side, and a value that changed shape, as one path', () => {
    expect(differingPaths({ a: 1, b: { c: 1 } }, { b: [1] })).toEqual(['b', 'a']);
    expect(differingPaths({ a: [1, 2] }, { a: [1, 2] })).toEqual([]);
  });
});
