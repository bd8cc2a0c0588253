import type { Schemas } from '../../api/client';
import type { CostSum } from '../../lib/cost';
import { formatDay } from './dashboard';

type Cost = Schemas['CostDto'];
type PackCost = Schemas['PackCostDto'];

export interface CostDayRow extends CostSum {
  date: string;
  /** What the table shows, `Nov 21`. */
  day: string;
  packs: PackCost[];
}

export interface PackCostTotal extends CostSum {
  packId: string;
  packName: string;
  packDeleted: boolean;
  evaluations: number;
}

/** The days with evaluations, newest first, each with its packs by cost (highest first). */
export function costDays(cost: Cost): CostDayRow[] {
  return cost.days
    .filter((day) => day.packs.length > 0)
    .map((day) => ({
      date: day.date,
      day: formatDay(day.date),
      costUsd: day.costUsd,
      unknownCostEvaluations: day.unknownCostEvaluations,
      packs: [...day.packs].sort(byCost),
    }))
    .reverse();
}

/** Each pack's 30 days together, highest cost first (then most unknown, then by name). */
export function packTotals(cost: Cost): PackCostTotal[] {
  const totals = new Map<string, PackCostTotal>();
  for (const day of cost.days) {
    for (const pack of day.packs) {
      const total = totals.get(pack.packId) ?? {
        packId: pack.packId,
        packName: pack.packName,
        packDeleted: pack.packDeleted,
        evaluations: 0,
        costUsd: 0,
        unknownCostEvaluations: 0,
      };
      total.evaluations += pack.evaluations;
      total.costUsd += pack.costUsd;
      total.unknownCostEvaluations += pack.unknownCostEvaluations;
      totals.set(pack.packId, total);
    }
  }
  return [...totals.values()].sort(byCost);
}

/** The 30 days' sum. */
export function costTotal(cost: Cost): CostSum {
  return cost.days.reduce(
    (sum, day) => ({
      costUsd: sum.costUsd + day.costUsd,
      unknownCostEvaluations: sum.unknownCostEvaluations + day.unknownCostEvaluations,
    }),
    { costUsd: 0, unknownCostEvaluations: 0 },
  );
}

function byCost(a: CostSum & { packName: string }, b: CostSum & { packName: string }): number {
  return (
    b.costUsd - a.costUsd ||
    b.unknownCostEvaluations - a.unknownCostEvaluations ||
    a.packName.localeCompare(b.packName)
  );
}
