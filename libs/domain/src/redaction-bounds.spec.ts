import { beforeAll, describe, expect, it } from '@jest/globals';
import { ADVERSARIAL_INPUTS, DETECTED_SAMPLES } from '../../../bench/redaction-inputs.js';
import { redactText } from './redaction.js';

/**
 * Redaction must stay linear on hostile text: tickets of up to 1 MiB reach it from the judge route,
 * inbound events and dataset uploads, and a backtracking rule once held the API for seconds on a
 * small run of spaces. The speed itself is measured by `npm run bench:redaction` against its
 * target; this test checks the growth instead: redacting 1 MiB once against redacting 32 KiB 32
 * times, the same amount of text. Linear work takes about as long both ways (a ratio near 1); a
 * quadratic rule takes 32 times longer on the one large text.
 *
 * Both sides are timed as this process's CPU time, and both last about as long (from a few ms to a
 * few tens, by family). Timing one small run (about 0.1 ms) against one large run, as this test
 * once did, saw a linear rule grow 352-fold from 32 KiB to 1 MiB in a loaded fresh-clone CI run,
 * with CPU time and not the wall clock: most likely a loaded host stretches a run of several ms
 * many times over while one of 0.1 ms still fits in its time slice. The two sides alternate, and
 * each side's figure is the least of its runs, so a stretch moves the ratio only when it hits every
 * run of one side and not every run of the other. An exponential rule never finishes the small
 * size: the test hangs rather than passes (Jest cannot time out synchronous code).
 */
const MiB = 1024 * 1024;
const SMALL = 32 * 1024;
/** How many small texts make one large one. */
const REPEATS = MiB / SMALL;
/**
 * Between linear (about 1) and quadratic (32) growth: a third of quadratic, as a ratio of 320
 * against 1,024 was when one small run was timed against one large run.
 */
const GROWTH_BOUND = 10;
const ROUNDS = 5;

/** This process's CPU time so far, in ms (user and system). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The CPU time of redacting `text` `times` times, in ms, and the output. */
function timed(text: string, times: number): { output: string; ms: number } {
  let output = '';
  const started = cpuMs();
  for (let run = 0; run < times; run++) output = redactText(text);
  return { output, ms: cpuMs() - started };
}

/**
 * How many times longer redacting `build(MiB)` once takes than redacting `build(SMALL)` REPEATS
 * times: the least time of ROUNDS alternating runs each.
 */
function growth(build: (length: number) => string): {
  ratio: number;
  small: string;
  large: string;
  outputs: string[];
} {
  const small = build(SMALL);
  const large = build(MiB);
  let smallMs = Infinity;
  let largeMs = Infinity;
  const outputs = ['', ''];
  for (let round = 0; round < ROUNDS; round++) {
    const a = timed(small, REPEATS);
    const b = timed(large, 1);
    smallMs = Math.min(smallMs, a.ms);
    largeMs = Math.min(largeMs, b.ms);
    outputs[0] = a.output;
    outputs[1] = b.output;
  }
  return { ratio: largeMs / smallMs, small, large, outputs };
}

describe('redactText on adversarial input', () => {
  beforeAll(() => {
    // The first calls compile the patterns; what is bounded here is the work per input.
    for (const sample of DETECTED_SAMPLES) redactText(sample.text);
  });

  describe.each(ADVERSARIAL_INPUTS.map((input) => [input.name, input] as const))('%s', (_name, input) => {
    it(`stays linear (aimed at: ${input.rule})`, () => {
      // A figure over the bound is measured again, up to twice: a quadratic rule stays over it
      // each time.
      let measured = growth(input.build);
      for (let again = 0; again < 2 && measured.ratio >= GROWTH_BOUND; again++)
        measured = growth(input.build);
      const { ratio, small, large, outputs } = measured;
      expect(small).toHaveLength(SMALL);
      expect(large).toHaveLength(MiB);
      expect(ratio).toBeLessThan(GROWTH_BOUND);
      if (input.unchanged) expect([outputs[0] === small, outputs[1] === large]).toEqual([true, true]);
    });

    it('still redacts what follows it', () => {
      const run = input.build(64 * 1024);
      for (const sample of DETECTED_SAMPLES) {
        const output = redactText(`${run}\n${sample.text}`);
        expect(output.slice(output.lastIndexOf('\n') + 1)).toBe(sample.redacted);
      }
    });
  });

  it('stays linear on a ticket at the body limit made of every family at once', () => {
    const mixed = (length: number) => {
      const slice = Math.floor(length / ADVERSARIAL_INPUTS.length);
      return ADVERSARIAL_INPUTS.map((input) => input.build(slice)).join('\n');
    };
    expect(growth(mixed).ratio).toBeLessThan(GROWTH_BOUND);
  });
});
