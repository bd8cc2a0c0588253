import { LEXICAL_MODEL_ID } from './lexical-model.js';

/** USD per million input and output tokens, per model id (MODEL_PRICES); the project ships none. */
export type ModelPrices = Record<string, { inputPerMTok: number; outputPerMTok: number }>;

const TOKENS_PER_PRICE_UNIT = 1_000_000;

/**
 * What one model call cost, in USD: its tokens at the model's price. The built-in `local-lexical-1`
 * costs 0. A model without a price gives null (unknown), never 0, so a sum that leaves it out is
 * not read as whole. A call that stopped before the model (no usage) used no tokens: 0 when priced.
 */
export function modelCost(
  prices: ModelPrices,
  modelId: string,
  usage: { inputTokens: number; outputTokens: number } | undefined,
): number | null {
  if (modelId === LEXICAL_MODEL_ID) return 0;
  // Own keys only: a model named `constructor` or `__proto__` has no price unless one is given.
  if (!Object.hasOwn(prices, modelId)) return null;
  const price = prices[modelId];
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return (input * price.inputPerMTok + output * price.outputPerMTok) / TOKENS_PER_PRICE_UNIT;
}

/**
 * The cost of several evaluations: the sum of the known costs, and how many were unknown. With any
 * unknown, `costUsd` is only a lower bound: it leaves them out.
 */
export interface CostSum {
  costUsd: number;
  unknownCostEvaluations: number;
}
