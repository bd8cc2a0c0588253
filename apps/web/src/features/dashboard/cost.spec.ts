import { describe, expect, it } from '@jest/globals';
import { costDays, costTotal, packTotals } from './cost';

const pack = (
  packId: string,
  packName: string,
  costUsd: number,
  unknownCostEvaluations = 0,
  evaluations = 1,
) => ({
  packId,
  packName,
  packDeleted: false,
  evaluations,
  costUsd,
  unknownCostEvaluations,
});

const cost = {
  today: { costUsd: 0.5, unknownCostEvaluations: 0 },
  days: [
    {
      date: '2026-11-19',
      costUsd: 0.25,
      unknownCostEvaluations: 2,
      packs: [pack('a', 'Alpha', 0, 2, 2), pack('b', 'Beta', 0.25)],
    },
    { date: '2026-11-20', costUsd: 0, unknownCostEvaluations: 0, packs: [] },
    { date: '2026-11-21', costUsd: 0.5, unknownCostEvaluations: 0, packs: [pack('a', 'Alpha', 0.5, 0, 4)] },
  ],
};

describe('costDays', () => {
  it('lists the days with evaluations, newest first, their packs by cost', () => {
    expect(costDays(cost)).toEqual([
      {
        date: '2026-11-21',
        day: 'Nov 21',
        costUsd: 0.5,
        unknownCostEvaluations: 0,
        packs: [pack('a', 'Alpha', 0.5, 0, 4)],
      },
      {
        date: '2026-11-19',
        day: 'Nov 19',
        costUsd: 0.25,
        unknownCostEvaluations: 2,
        packs: [pack('b', 'Beta', 0.25), pack('a', 'Alpha', 0, 2, 2)],
      },
    ]);
  });

  it('is empty without evaluations', () => {
    expect(costDays({ today: cost.today, days: [cost.days[1]] })).toEqual([]);
  });
});

describe('packTotals and costTotal', () => {
  it("adds each pack's days, keeping the unknown counts apart", () => {
    expect(packTotals(cost)).toEqual([pack('a', 'Alpha', 0.5, 2, 6), pack('b', 'Beta', 0.25)]);
    expect(costTotal(cost)).toEqual({ costUsd: 0.75, unknownCostEvaluations: 2 });
  });
});
