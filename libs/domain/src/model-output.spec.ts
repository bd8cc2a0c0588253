import { describe, expect, it } from '@jest/globals';
import { buildResponseSchema, parseModelOutput } from './model-output.js';
import type { PackDocument } from './pack-document.js';

const document: PackDocument = {
  questions: [
    {
      type: 'choice',
      id: 'dept',
      name: 'D',
      instructions: '',
      criteria: { options: [{ value: 'a' }, { value: 'b' }] },
      review: { minSelectedProbability: 0 },
    },
    {
      type: 'boolean',
      id: 'flag',
      name: 'F',
      instructions: '',
      criteria: {},
      review: { minSelectedProbability: 0 },
    },
    {
      type: 'score',
      id: 'small',
      name: 'S',
      instructions: '',
      criteria: { min: 1, max: 3 },
      review: { minSelectedProbability: 0 },
    },
    {
      type: 'score',
      id: 'wide',
      name: 'W',
      instructions: '',
      criteria: { min: 0, max: 100 },
      review: { minSelectedProbability: 0 },
    },
  ],
};

const good = {
  dept: { choice: 'b', probabilities: { a: 0.25, b: 0.75 } },
  flag: { probability: 0.4 },
  small: { score: 3, probabilities: { '1': 0, '2': 0.1, '3': 0.9 } },
  wide: { score: 42.5 },
};

describe('buildResponseSchema', () => {
  it('has one required property per question, with choice enums and probabilities, strict-mode ready', () => {
    const schema = buildResponseSchema(document) as any;
    expect(schema.required).toEqual(['dept', 'flag', 'small', 'wide']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.dept.properties.choice).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(schema.properties.dept.properties.probabilities.required).toEqual(['a', 'b']);
    expect(schema.properties.flag.required).toEqual(['probability']);
    expect(schema.properties.small.properties.probabilities.required).toEqual(['1', '2', '3']);
    expect(schema.properties.wide.required).toEqual(['score']);
    expect(schema.properties.wide.properties).not.toHaveProperty('probabilities');
  });
});

describe('parseModelOutput', () => {
  it('turns valid output into typed answers', () => {
    expect(parseModelOutput(document, JSON.stringify(good))).toEqual({
      ok: true,
      answers: {
        dept: { type: 'choice', choice: 'b', probabilities: { a: 0.25, b: 0.75 } },
        flag: { type: 'boolean', probability: 0.4 },
        small: { type: 'score', score: 3, probabilities: { '1': 0, '2': 0.1, '3': 0.9 } },
        wide: { type: 'score', score: 42.5 },
      },
    });
  });

  it.each([
    ['not JSON', 'The answer is b'],
    ['null content', null],
    ['an array', '[]'],
    ['a missing question', JSON.stringify({ ...good, wide: undefined })],
    ['an unknown choice', JSON.stringify({ ...good, dept: { choice: 'c' } })],
    ['a probability above 1', JSON.stringify({ ...good, flag: { probability: 1.2 } })],
    [
      'probabilities without the chosen option',
      JSON.stringify({ ...good, dept: { choice: 'b', probabilities: { a: 0.5 } } }),
    ],
    [
      'a probability for an unknown option',
      JSON.stringify({ ...good, dept: { choice: 'a', probabilities: { a: 0.5, z: 0.5 } } }),
    ],
    ['a score out of range', JSON.stringify({ ...good, small: { score: 4 } })],
    ['a score that is not a number', JSON.stringify({ ...good, wide: { score: '42' } })],
  ])('refuses %s', (_, text) => {
    expect(parseModelOutput(document, text).ok).toBe(false);
  });
});
