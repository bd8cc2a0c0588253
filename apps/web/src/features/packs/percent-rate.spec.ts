import { describe, expect, it } from '@jest/globals';
import { percentFromRate, rateFromPercent } from './percent-rate';

describe('percent fields', () => {
  it('send a percent as a rate from 0 to 1, without float noise', () => {
    // 7 / 100 is 0.07000000000000001 in binary floating point; the API gets 0.07.
    expect(rateFromPercent(7)).toBe(0.07);
    expect(rateFromPercent(12.5)).toBe(0.125);
    expect(rateFromPercent('12.5')).toBe(0.125);
    expect(rateFromPercent(0)).toBe(0);
    expect(rateFromPercent(100)).toBe(1);
  });

  it('convert only: a percent the server refuses is still sent, for the server to say why', () => {
    expect(rateFromPercent(150)).toBe(1.5);
    expect(rateFromPercent(-1)).toBe(-0.01);
  });

  it('give no rate for what is not a number, so NaN is never sent', () => {
    for (const percent of ['', '  ', 'abc', '-', Number.NaN, Number.POSITIVE_INFINITY])
      expect(rateFromPercent(percent)).toBeUndefined();
  });

  it('show a rate as a percent, without float noise', () => {
    expect(percentFromRate(0.05)).toBe(5);
    expect(percentFromRate(0.0725)).toBe(7.25);
    expect(percentFromRate(0.07)).toBe(7);
    expect(rateFromPercent(percentFromRate(0.123456))).toBe(0.123456);
  });
});
