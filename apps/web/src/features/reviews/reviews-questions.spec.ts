import { describe, expect, it } from '@jest/globals';
import { firstUnlabeled, questionSpecs, remainingAgreements } from './reviews-questions';

const LIVE = '00000000-0000-4000-8000-00000000000a';
const DRAFT = '00000000-0000-4000-8000-00000000000b';
const OLD = '00000000-0000-4000-8000-00000000000c';

const PACK = {
  id: 'p',
  name: 'Triage',
  liveVersionId: LIVE,
  draftVersionId: DRAFT,
  updatedAt: '2026-01-01T00:00:00Z',
  document: { questions: [] },
  unpublishedChanges: true,
  liveDocument: {
    questions: [
      {
        type: 'choice' as const,
        id: 'department',
        name: 'Department',
        instructions: 'Which team?',
        criteria: { options: [{ value: 'billing', description: 'Money' }, { value: 'technical' }] },
        review: { minSelectedProbability: 0.6 },
      },
      {
        type: 'score' as const,
        id: 'complexity',
        name: 'Complexity',
        instructions: '',
        criteria: { min: 1, max: 5 },
        review: { minSelectedProbability: 0 },
      },
      {
        type: 'boolean' as const,
        id: 'abusive',
        name: 'Abusive',
        instructions: '',
        criteria: {},
        review: { minSelectedProbability: 0.6 },
      },
    ],
  },
};

describe('the questions of an evaluation', () => {
  const evaluation = (packVersionId: string, answers: Record<string, any>, labels: any[] = []) => ({
    packVersionId,
    result: { answers },
    labels,
  });

  it("uses the version's own document in its order", () => {
    const specs = questionSpecs(evaluation(LIVE, { abusive: { type: 'boolean', probability: 0.1 } }), PACK);
    expect(specs.map((spec) => spec.id)).toEqual(['department', 'complexity', 'abusive']);
    expect(specs[0]).toMatchObject({
      name: 'Department',
      type: 'choice',
      options: [{ value: 'billing', description: 'Money' }, { value: 'technical' }],
    });
    expect(specs[1]).toMatchObject({ type: 'score', min: 1, max: 5 });
  });

  it('falls back to the answers for another version or a deleted pack', () => {
    const other = evaluation(OLD, {
      department: { type: 'choice', choice: 'legal', probabilities: { legal: 0.5, billing: 0.5 } },
      extra: { type: 'score', score: 2, probabilities: { '1': 0.5, '2': 0.5 } },
    });
    const specs = questionSpecs(other, PACK);
    expect(specs.map((spec) => [spec.id, spec.name])).toEqual([
      ['department', 'Department'],
      ['extra', 'extra'],
    ]);
    expect(specs[1]).toMatchObject({ type: 'score', min: 1, max: 2 });
    const gone = questionSpecs(other, undefined);
    expect(gone[0]).toMatchObject({
      name: 'department',
      options: [{ value: 'legal' }, { value: 'billing' }],
    });
  });

  it('finds the first unlabeled question', () => {
    const answers = { department: { type: 'choice' as const, choice: 'billing' } };
    const specs = questionSpecs(evaluation(LIVE, answers), PACK);
    const labels = [
      {
        id: 'l',
        questionId: 'department',
        answer: answers.department,
        note: '',
        agreement: true,
        createdAt: '',
      },
    ];
    expect(firstUnlabeled(specs, labels, answers)?.id).toBe('complexity');
    expect(firstUnlabeled(specs, labels, answers, true)).toBeUndefined();
    expect(firstUnlabeled(specs, [], answers, true)?.id).toBe('department');
  });

  it('agrees with every remaining answered question, in the page order', () => {
    const answers = {
      abusive: { type: 'boolean' as const, probability: 0.2 },
      complexity: { type: 'score' as const, score: 4, probabilities: { '4': 0.6 } },
      department: {
        type: 'choice' as const,
        choice: 'technical',
        probabilities: { technical: 0.55, billing: 0.45 },
      },
    };
    const specs = questionSpecs(evaluation(LIVE, answers), PACK);
    const label = {
      id: 'l',
      questionId: 'complexity',
      answer: { type: 'score' as const, score: 2 },
      note: '',
      agreement: false,
      createdAt: '',
    };
    expect(remainingAgreements(specs, [label], answers)).toEqual([
      { questionId: 'department', answer: { type: 'choice', choice: 'technical' } },
      { questionId: 'abusive', answer: { type: 'boolean', probability: 0 } },
    ]);
    // A question the model did not answer gets no label; nothing remains once all are labeled.
    const partial = { department: answers.department };
    expect(remainingAgreements(specs, [], partial)).toEqual([
      { questionId: 'department', answer: { type: 'choice', choice: 'technical' } },
    ]);
    expect(remainingAgreements(specs, [{ ...label, questionId: 'department' }], partial)).toEqual([]);
  });
});
