import {
  ValidatorConstraint,
  type ValidationArguments,
  type ValidatorConstraintInterface,
} from 'class-validator';

/** USD per million input and output tokens, per model id, as MODEL_PRICES gives them. */
export type ModelPriceTable = Record<string, { inputPerMTok: number; outputPerMTok: number }>;

const SHAPE = '{"<modelId>": {"inputPerMTok": number, "outputPerMTok": number}}';
const FIELDS = ['inputPerMTok', 'outputPerMTok'] as const;

type Parsed = { ok: true; prices: ModelPriceTable } | { ok: false; reason: string };

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads MODEL_PRICES: a JSON object of model ids to two prices, each a finite number of at least 0. */
export function parseModelPrices(text: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, reason: `must be JSON like ${SHAPE}` };
  }
  if (!isPlainObject(json)) return { ok: false, reason: `must be a JSON object like ${SHAPE}` };
  const entries: Array<[string, { inputPerMTok: number; outputPerMTok: number }]> = [];
  for (const [modelId, price] of Object.entries(json)) {
    if (!modelId.trim()) return { ok: false, reason: 'has an empty model id' };
    const keys = isPlainObject(price) ? Object.keys(price) : [];
    if (!isPlainObject(price) || keys.length !== 2 || !FIELDS.every((field) => keys.includes(field)))
      return {
        ok: false,
        reason: `has an invalid price for "${modelId}": it must be {"inputPerMTok": number, "outputPerMTok": number}`,
      };
    for (const field of FIELDS) {
      const value = price[field];
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
        return {
          ok: false,
          reason: `has an invalid price for "${modelId}": ${field} must be a finite number of at least 0 (USD per million tokens)`,
        };
    }
    entries.push([
      modelId,
      { inputPerMTok: price.inputPerMTok as number, outputPerMTok: price.outputPerMTok as number },
    ]);
  }
  // fromEntries defines own properties, so even a model named `__proto__` stays a plain key.
  return { ok: true, prices: Object.fromEntries(entries) };
}

/** The class-validator rule of MODEL_PRICES, whose message is the first thing wrong with it. */
@ValidatorConstraint({ name: 'modelPrices' })
export class ModelPricesFormat implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && parseModelPrices(value).ok;
  }

  defaultMessage(args: ValidationArguments): string {
    if (typeof args.value !== 'string') return `must be JSON like ${SHAPE}`;
    const parsed = parseModelPrices(args.value);
    return parsed.ok ? 'is invalid' : parsed.reason;
  }
}
