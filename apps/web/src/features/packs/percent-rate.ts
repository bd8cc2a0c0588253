/**
 * The pack page's percent fields (the audit rate, the shadow sample rate) and the API's rates from 0
 * to 1. They only convert: whether a rate is allowed is the server's to say, and its refusal shows at
 * the field.
 */

/**
 * What was typed in a percent field (Mantine's NumberInput gives a number, or '' when empty) as a
 * rate, rounded to six decimals so that 7% is sent as 0.07, not 0.07000000000000001; undefined when
 * it is not a number, which no request can carry.
 */
export function rateFromPercent(percent: number | string): number | undefined {
  const value = typeof percent === 'number' ? percent : percent.trim() === '' ? Number.NaN : Number(percent);
  return Number.isFinite(value) ? Number((value / 100).toFixed(6)) : undefined;
}

/** A rate as the percent its field shows, without float noise (0.0725 is 7.25). */
export function percentFromRate(rate: number): number {
  return Number((rate * 100).toFixed(4));
}

/** The message at a percent (or count) field when what was typed is not a number. */
export const NOT_A_NUMBER = 'Enter a number';
