import { describe, expect, it } from '@jest/globals';
import { modelCost, type ModelPrices } from './cost.js';

const prices: ModelPrices = {
  'gpt-4o-mini': { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  'big-model': { inputPerMTok: 2.5, outputPerMTok: 10 },
  'free-model': { inputPerMTok: 0, outputPerMTok: 0 },
};

describe('modelCost', () => {
  it("prices the call's tokens per million, input and output apart", () => {
    // 321 × 2.5 / 1e6 + 45 × 10 / 1e6 = 0.0008025 + 0.00045
    expect(modelCost(prices, 'big-model', { inputTokens: 321, outputTokens: 45 })).toBeCloseTo(0.0012525, 12);
    // 1 000 000 × 0.15 / 1e6 + 500 000 × 0.6 / 1e6 = 0.15 + 0.3
    expect(modelCost(prices, 'gpt-4o-mini', { inputTokens: 1_000_000, outputTokens: 500_000 })).toBeCloseTo(
      0.45,
      12,
    );
    expect(modelCost(prices, 'big-model', { inputTokens: 0, outputTokens: 2 })).toBeCloseTo(0.00002, 12);
    expect(modelCost(prices, 'free-model', { inputTokens: 1000, outputTokens: 1000 })).toBe(0);
  });

  it('costs the built-in local-lexical-1 nothing, with or without prices', () => {
    expect(modelCost({}, 'local-lexical-1', { inputTokens: 120, outputTokens: 30 })).toBe(0);
    expect(modelCost(prices, 'local-lexical-1', undefined)).toBe(0);
  });

  it('gives null (unknown), never 0, for a model without a price', () => {
    expect(modelCost(prices, 'gpt-4o-mini-2024-07-18', { inputTokens: 10, outputTokens: 1 })).toBeNull();
    expect(modelCost({}, 'big-model', undefined)).toBeNull();
  });

  it('reads only the prices given: inherited names are not models', () => {
    expect(modelCost(prices, 'constructor', { inputTokens: 10, outputTokens: 1 })).toBeNull();
    expect(modelCost(prices, 'toString', undefined)).toBeNull();
    expect(modelCost(prices, '__proto__', undefined)).toBeNull();
  });

  it('counts a call that failed before the model (no usage) as 0 tokens: 0 when priced', () => {
    expect(modelCost(prices, 'big-model', undefined)).toBe(0);
  });
});
