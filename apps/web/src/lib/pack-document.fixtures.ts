import type { PackDocument } from './pack-document';

/** A document for specs: a choice question (with a description, an outcome and an unknown key) and a score. */
export const SAMPLE_DOCUMENT: PackDocument = {
  questions: [
    {
      type: 'choice',
      id: 'department',
      name: 'Department',
      instructions: 'Which team?',
      criteria: {
        options: [
          { value: 'billing', description: 'Invoices' },
          { value: 'technical' },
          { value: 'legal', outcome: 'review' },
        ],
        derive: 'department',
        extra: 'kept',
      },
      review: { minSelectedProbability: 0.6 },
    },
    {
      type: 'score',
      id: 'complexity',
      name: 'Complexity',
      instructions: '',
      criteria: { min: 1, max: 5 },
      review: { minSelectedProbability: 0 },
    },
  ],
};
