import { describe, expect, it, jest } from '@jest/globals';
import { decide, selectedProbabilities, selectedProbability } from './decision.js';
import type { Answer } from './judgment.js';
import type { PackDocument } from './pack-document.js';

const review = (min: number) => ({ minSelectedProbability: min });
const document: PackDocument = {
  questions: [
    {
      type: 'choice',
      id: 'department',
      name: 'Department',
      instructions: '',
      criteria: {
        options: [
          { value: 'billing' },
          { value: 'legal', outcome: 'review' },
          { value: 'spam', outcome: 'reject' },
        ],
        derive: 'department',
      },
      review: review(0.6),
    },
    {
      type: 'choice',
      id: 'topic',
      name: 'Topic',
      instructions: '',
      criteria: { options: [{ value: 'refund' }, { value: 'bug' }], derive: 'tags' },
      review: review(0),
    },
    {
      type: 'boolean',
      id: 'abusive',
      name: 'Abusive',
      instructions: '',
      criteria: { outcomeWhenTrue: 'reject', outcomeWhenFalse: 'accept' },
      review: review(0.7),
    },
    {
      type: 'score',
      id: 'effort',
      name: 'Effort',
      instructions: '',
      criteria: { min: 1, max: 3 },
      review: review(0.5),
    },
  ],
};

function answers(overrides: Partial<Record<string, Answer>> = {}): Record<string, Answer> {
  return {
    department: {
      type: 'choice',
      choice: 'billing',
      probabilities: { billing: 0.9, legal: 0.05, spam: 0.05 },
    },
    topic: { type: 'choice', choice: 'refund', probabilities: { refund: 0.8, bug: 0.2 } },
    abusive: { type: 'boolean', probability: 0.1 },
    effort: { type: 'score', score: 2, probabilities: { '1': 0.2, '2': 0.7, '3': 0.1 } },
    ...overrides,
  };
}

describe('selectedProbability', () => {
  it.each<[Answer, number]>([
    [{ type: 'choice', choice: 'a', probabilities: { a: 0.7, b: 0.3 } }, 0.7],
    [{ type: 'choice', choice: 'a' }, 1],
    [{ type: 'boolean', probability: 0.8 }, 0.8],
    [{ type: 'boolean', probability: 0.2 }, 0.8],
    [{ type: 'boolean', probability: 0.5 }, 0.5],
    [{ type: 'score', score: 2, probabilities: { '1': 0.1, '2': 0.6, '3': 0.3 } }, 0.6],
    [{ type: 'score', score: 2 }, 1],
  ])('%j -> %d', (answer, expected) => {
    expect(selectedProbability(answer)).toBeCloseTo(expected, 10);
  });
});

describe('selectedProbabilities', () => {
  it('maps each answered question to its selected probability', () => {
    expect(
      selectedProbabilities({
        tone: { type: 'boolean', probability: 0.3 },
        topic: { type: 'choice', choice: 'a', probabilities: { a: 0.6, b: 0.4 } },
      }),
    ).toEqual({ tone: 0.7, topic: 0.6 });
  });
});

describe('decide', () => {
  it('accepts confident answers with no objecting outcome, and collects derived values', () => {
    expect(decide(document, answers())).toEqual({
      status: 'accept',
      reviewReasons: [],
      derived: { department: 'billing', tags: ['refund'] },
    });
  });

  it('sends a failure to review with its kind, whatever the answers', () => {
    expect(decide(document, answers(), 'gateway_unavailable')).toEqual({
      status: 'review',
      reviewReasons: ['gateway_unavailable'],
    });
  });

  it('names each low-confidence question, comparing with its own minimum', () => {
    const decision = decide(
      document,
      answers({
        department: {
          type: 'choice',
          choice: 'billing',
          probabilities: { billing: 0.59, legal: 0.21, spam: 0.2 },
        },
        abusive: { type: 'boolean', probability: 0.35 },
        effort: { type: 'score', score: 2, probabilities: { '1': 0.3, '2': 0.4, '3': 0.3 } },
      }),
    );
    expect(decision.status).toBe('review');
    expect(decision.reviewReasons).toEqual([
      'low_confidence:department',
      'low_confidence:abusive',
      'low_confidence:effort',
    ]);
  });

  it('treats a probability equal to the minimum as confident enough', () => {
    const decision = decide(
      document,
      answers({ department: { type: 'choice', choice: 'billing', probabilities: { billing: 0.6 } } }),
    );
    expect(decision.status).toBe('accept');
  });

  it('sends an option with outcome review to review', () => {
    const decision = decide(
      document,
      answers({ department: { type: 'choice', choice: 'legal', probabilities: { legal: 0.95 } } }),
    );
    expect(decision).toMatchObject({ status: 'review', reviewReasons: ['outcome_review:department'] });
  });

  it('rejects on a reject outcome (choice or boolean side) when nothing needs review', () => {
    expect(
      decide(
        document,
        answers({ department: { type: 'choice', choice: 'spam', probabilities: { spam: 0.9 } } }),
      ).status,
    ).toBe('reject');
    expect(decide(document, answers({ abusive: { type: 'boolean', probability: 0.95 } })).status).toBe(
      'reject',
    );
  });

  it('lets review win over reject', () => {
    const decision = decide(
      document,
      answers({
        abusive: { type: 'boolean', probability: 0.95 },
        effort: { type: 'score', score: 1, probabilities: { '1': 0.4 } },
      }),
    );
    expect(decision).toMatchObject({ status: 'review', reviewReasons: ['low_confidence:effort'] });
  });
});

describe('decide with review.useCalibrated', () => {
  /** `department` opts in (minimum 0.6); `abusive` (minimum 0.7) does not. */
  const optedIn: PackDocument = {
    questions: document.questions.map((question) =>
      question.id === 'department'
        ? { ...question, review: { ...question.review, useCalibrated: true } }
        : question,
    ),
  };
  /** An overconfident judge: calibrated = 0.5 + 0.5·(p − 0.5), so 0.9 → 0.7 and 0.8 → 0.65. */
  const shrink = (_questionId: string, probability: number) => 0.5 + 0.5 * (probability - 0.5);
  const everyQuestion = jest.fn(shrink);

  it('compares the calibrated probability of a question that opts in', () => {
    // department: selected 0.9 → calibrated 0.7 ≥ 0.6: still accepted.
    expect(decide(optedIn, answers(), undefined, shrink).status).toBe('accept');
    // department: selected 0.65 → calibrated 0.5 + 0.5·0.15 = 0.575 < 0.6: review, though 0.65 ≥ 0.6.
    const unsure = answers({
      department: { type: 'choice', choice: 'billing', probabilities: { billing: 0.65, legal: 0.35 } },
    });
    expect(decide(document, unsure, undefined, shrink).status).toBe('accept');
    expect(decide(optedIn, unsure, undefined, shrink)).toMatchObject({
      status: 'review',
      reviewReasons: ['low_confidence:department'],
    });
  });

  it('reads no map for the questions that do not opt in', () => {
    everyQuestion.mockClear();
    // abusive: selected 0.9 → would calibrate to 0.7, equal to its minimum; it does not opt in anyway.
    decide(optedIn, answers(), undefined, everyQuestion);
    expect(everyQuestion.mock.calls).toEqual([['department', 0.9]]);
  });

  it('keeps the raw probability of a question without a map', () => {
    const noMap = () => undefined;
    const unsure = answers({
      department: { type: 'choice', choice: 'billing', probabilities: { billing: 0.65, legal: 0.35 } },
    });
    expect(decide(optedIn, unsure, undefined, noMap)).toEqual(decide(document, unsure));
    expect(decide(optedIn, unsure)).toEqual(decide(document, unsure));
  });

  it('can also raise a probability above the minimum', () => {
    // department: selected 0.55 < 0.6 raw; a map saying reviewers agree 80% of the time at 0.55 passes it.
    const low = answers({
      department: { type: 'choice', choice: 'billing', probabilities: { billing: 0.55, legal: 0.45 } },
    });
    expect(decide(optedIn, low).status).toBe('review');
    expect(decide(optedIn, low, undefined, () => 0.8).status).toBe('accept');
  });

  it('does not calibrate a failure', () => {
    expect(decide(optedIn, answers(), 'gateway_unavailable', () => 0)).toEqual({
      status: 'review',
      reviewReasons: ['gateway_unavailable'],
    });
  });
});
