import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { checkPackDocument, type Question } from './pack-document.js';
import { canonicalJson, questionFingerprint } from './question-fingerprint.js';

const department: Question = {
  type: 'choice',
  id: 'department',
  name: 'Department',
  instructions: 'Which team should handle this ticket?',
  criteria: {
    options: [{ value: 'billing', description: 'Charges' }, { value: 'technical' }],
    derive: 'department',
  },
  review: { minSelectedProbability: 0.6 },
};

describe('canonicalJson', () => {
  it('sorts object keys at every depth, keeps array order, and leaves out undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 'x', e: null }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"e":null,"f":"x"}]},"b":1}',
    );
  });
});

describe('questionFingerprint', () => {
  it('is the sha-256 of the canonical JSON of the question without its id, name and review', () => {
    const wording =
      '{"criteria":{"derive":"department","options":[{"description":"Charges","value":"billing"},{"value":"technical"}]},' +
      '"instructions":"Which team should handle this ticket?","type":"choice"}';
    expect(questionFingerprint(department)).toBe(createHash('sha256').update(wording).digest('hex'));
  });

  it('is the same for the same wording, whatever the key order (as jsonb returns it)', () => {
    const reordered = JSON.parse(
      '{"review":{"minSelectedProbability":0.6},"criteria":{"derive":"department","options":[{"value":"billing","description":"Charges"},{"value":"technical"}]},"name":"Department","id":"department","type":"choice","instructions":"Which team should handle this ticket?"}',
    ) as Question;
    expect(questionFingerprint(reordered)).toBe(questionFingerprint(department));
  });

  it('ignores the review settings, the id and the name (a renamed question keeps its map)', () => {
    const reviewed: Question = {
      ...department,
      id: 'team',
      name: 'Team',
      review: { minSelectedProbability: 0.9, useCalibrated: true },
    };
    expect(questionFingerprint(reviewed)).toBe(questionFingerprint(department));
  });

  it('changes with the instructions, the criteria or any other key of the question', () => {
    const changes: Question[] = [
      { ...department, instructions: 'Which team handles this?' },
      {
        ...department,
        criteria: { ...department.criteria, options: [...department.criteria.options, { value: 'legal' }] },
      },
      {
        ...department,
        criteria: {
          ...department.criteria,
          options: [{ value: 'billing', description: 'Charges and refunds' }, { value: 'technical' }],
        },
      },
      // The order of the options is part of what the judge reads.
      {
        ...department,
        criteria: { ...department.criteria, options: [...department.criteria.options].reverse() },
      },
      { ...department, rubric: 'v2' },
    ];
    const fingerprints = changes.map(questionFingerprint);
    expect(new Set([questionFingerprint(department), ...fingerprints]).size).toBe(changes.length + 1);
  });
});

describe('review.useCalibrated in a pack document', () => {
  const documentWith = (review: unknown) => ({ questions: [{ ...department, review }] });

  it('is optional and boolean', () => {
    expect(checkPackDocument(documentWith({ minSelectedProbability: 0.6 })).ok).toBe(true);
    expect(checkPackDocument(documentWith({ minSelectedProbability: 0.6, useCalibrated: true })).ok).toBe(
      true,
    );
    expect(checkPackDocument(documentWith({ minSelectedProbability: 0.6, useCalibrated: false })).ok).toBe(
      true,
    );
  });

  it.each(['yes', 1, null, {}])('refuses %j with an issue at its path', (value) => {
    const check = checkPackDocument(documentWith({ minSelectedProbability: 0.6, useCalibrated: value }));
    expect(check.ok).toBe(false);
    expect(!check.ok && check.issues.map((issue) => issue.path)).toEqual([
      'questions.0.review.useCalibrated',
    ]);
  });
});
