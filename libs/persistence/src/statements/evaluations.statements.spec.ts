import { describe, expect, it } from '@jest/globals';
import { countAudits, countReviews } from './evaluations.statements.js';

const ORDER = 'ORDER BY created_at DESC, id DESC';

describe('the queues’ capped counts', () => {
  it.each([
    ['review', countReviews],
    ['audit', countAudits],
  ])(
    'count the %s queue in its order when filtered by question (no index holds it) but not by sources (no index orders several), and in no order otherwise',
    (_, counts) => {
      const shapes = Object.keys(counts);
      const inOrder = shapes.filter((shape) => {
        const filters = shape.split('+');
        return filters.includes('questionId') && !filters.includes('sources');
      });
      expect(inOrder).toEqual(
        expect.arrayContaining(['questionId', 'packId+questionId', 'questionId+labeled']),
      );
      for (const shape of shapes) {
        expect([shape, counts[shape].text.includes(ORDER)]).toEqual([shape, inOrder.includes(shape)]);
      }
    },
  );
});
