import { describe, expect, it } from '@jest/globals';
import { checkLabelFit } from './label-fit.js';
import type { PackDocument } from './pack-document.js';

const review = { minSelectedProbability: 0 };
const document: PackDocument = {
  questions: [
    {
      type: 'choice',
      id: 'dept',
      name: 'D',
      instructions: '',
      criteria: { options: [{ value: 'a' }, { value: 'b' }] },
      review,
    },
    { type: 'boolean', id: 'flag', name: 'F', instructions: '', criteria: {}, review },
    { type: 'score', id: 'small', name: 'S', instructions: '', criteria: { min: 1, max: 3 }, review },
  ],
};

describe('checkLabelFit', () => {
  it('accepts each answer shape and returns it as stored', () => {
    expect(checkLabelFit(document, 'dept', { type: 'choice', choice: 'a' })).toEqual({
      ok: true,
      answer: { type: 'choice', choice: 'a' },
    });
    expect(checkLabelFit(document, 'flag', { type: 'boolean', probability: 1 })).toEqual({
      ok: true,
      answer: { type: 'boolean', probability: 1 },
    });
    expect(checkLabelFit(document, 'small', { type: 'score', score: 2 })).toEqual({
      ok: true,
      answer: { type: 'score', score: 2 },
    });
  });

  it('keeps probabilities that are valid as in a model answer', () => {
    const answer = { type: 'choice', choice: 'b', probabilities: { a: 0.1, b: 0.9 } };
    expect(checkLabelFit(document, 'dept', answer)).toEqual({ ok: true, answer });
  });

  it.each([
    [
      'an unknown field',
      'dept',
      { type: 'choice', choice: 'a', confidence: 1 },
      'a choice answer has no field "confidence"',
    ],
    [
      'a prototype key',
      'dept',
      JSON.parse('{"type":"choice","choice":"a","__proto__":{"x":1}}'),
      'no field "__proto__"',
    ],
    [
      'probabilities on a boolean',
      'flag',
      { type: 'boolean', probability: 1, probabilities: {} },
      'no field "probabilities"',
    ],
    [
      'probabilities that are not a map',
      'dept',
      { type: 'choice', choice: 'a', probabilities: 'high' },
      'bad probabilities',
    ],
    [
      'a probability out of range',
      'dept',
      { type: 'choice', choice: 'a', probabilities: { a: 2 } },
      'bad probabilities',
    ],
    [
      'a probability of the wrong type',
      'small',
      { type: 'score', score: 2, probabilities: { '2': '0.5' } },
      'bad probabilities',
    ],
    [
      'a probability for an unknown option',
      'dept',
      { type: 'choice', choice: 'a', probabilities: { a: 0.5, z: 0.5 } },
      'bad probabilities',
    ],
    [
      'no probability for the choice',
      'dept',
      { type: 'choice', choice: 'a', probabilities: { b: 0.5 } },
      'no probability for the choice',
    ],
    ['a choice outside the options', 'dept', { type: 'choice', choice: 'c' }, 'choice must be one of'],
    ['a boolean between 0 and 1', 'flag', { type: 'boolean', probability: 0.5 }, 'probability 0 or 1'],
    ['a score out of range', 'small', { type: 'score', score: 4 }, 'score must be a number from 1 to 3'],
    ['another type', 'small', { type: 'choice', choice: 'a' }, 'is a score question, not choice'],
    ['an array', 'dept', [{ type: 'choice' }], 'answer needs a type'],
  ])('refuses %s', (_case, questionId, answer, message) => {
    const fit = checkLabelFit(document, questionId, answer);
    expect(fit.ok).toBe(false);
    expect(!fit.ok && fit.error).toContain(message);
  });
});
