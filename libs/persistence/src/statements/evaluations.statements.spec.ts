import { describe, expect, it } from '@jest/globals';
import { countAudits, countReviews } from './evaluations.statements.js';

const ORDER = 'ORDER BY created_at DESC, id DESC';

describe('the queues’ capped counts', () => {
  it.each([
    ['review', countReviews],
    ['audit', countAudits],
  ])(
    'count the %s queue in its order when filtered by question, which no index holds, and in no order otherwise',
    (_, counts) => {
      const shapes = Object.keys(counts);
      const byQuestion = shapes.filter((shape) => shape.split('+').includes('questionId'));
      expect(byQuestion).toEqual(
        expect.arrayContaining(['questionId', 'packId+questionId', 'questionId+sources']),
      );
      for (const shape of shapes) {
        expect([shape, counts[shape].text.includes(ORDER)]).toEqual([shape, byQuestion.includes(shape)]);
      }
    },
  );
});
