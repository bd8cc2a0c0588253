import type { Schemas } from '../api/client';
import { countLabel } from './format';

/** Known costs summed, and how many evaluations had an unknown cost (a model without a price). */
export type CostSum = Schemas['CostSumDto'];

/**
 * USD with enough digits for a cent's fractions: `$12.34`, `$0.0125`, `$0.000045`; `$0` for nothing.
 * Judgments cost fractions of a cent, so a fixed two decimals would show most days as $0.00.
 */
export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  if (value >= 1)
    return `$${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `$${Number(value.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 10 })}`;
}

/**
 * A cost as shown: the sum when every cost is known; "at least" the sum when some are unknown, so a
 * partial sum is never read as the whole; "Unknown" when none is known.
 */
export function costText(cost: CostSum): string {
  if (cost.unknownCostEvaluations === 0) return formatUsd(cost.costUsd);
  if (cost.costUsd === 0) return 'Unknown';
  return `at least ${formatUsd(cost.costUsd)}`;
}

/** What the unknown part is, for a line under the figure; null when every cost is known. */
export function unknownCostNote(cost: CostSum): string | null {
  const count = cost.unknownCostEvaluations;
  if (count === 0) return null;
  return `${countLabel(count, 'evaluation')} of unknown cost (no price for the model)`;
}
