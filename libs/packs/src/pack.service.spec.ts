import { describe, expect, it } from '@jest/globals';
import type { PackDocument } from '@app/domain';
import { compareDocuments } from './pack.service.js';

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
    expect(compareDocuments(from, to)).toEqual({ added: ['d'], removed: ['b'], changed: ['c'] });
  });

  it('ignores key order and question order', () => {
    const a = question('a', { criteria: { description: 'x', outcomeWhenTrue: 'reject' } });
    const reordered = Object.fromEntries(
      Object.entries({ ...a, criteria: { outcomeWhenTrue: 'reject', description: 'x' } }).reverse(),
    );
    expect(
      compareDocuments({ questions: [a, question('b')] }, { questions: [question('b'), reordered as never] }),
    ).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
  });
});
