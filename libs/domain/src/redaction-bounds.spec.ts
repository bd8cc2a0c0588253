import { beforeAll, describe, expect, it } from '@jest/globals';
import { ADVERSARIAL_INPUTS, DETECTED_SAMPLES } from '../../../bench/redaction-inputs.js';
import { redactText } from './redaction.js';

/**
 * Redaction must stay linear on hostile text: tickets of up to 1 MiB reach it from the judge route,
 * inbound events and dataset uploads, and a backtracking rule once held the API for seconds on a
 * small run of spaces. The speed itself is measured by `npm run bench:redaction` against its
 * target; the bounds here are far looser, there only to catch a rule that turns super-linear,
 * which misses them by orders of magnitude. The small size goes first so such a rule fails in
 * seconds instead of holding the run.
 */
const MiB = 1024 * 1024;
const SIZES = [
  { length: 32 * 1024, boundMs: 250 },
  { length: MiB, boundMs: 1000 },
];

function timed(text: string): { output: string; ms: number } {
  const started = performance.now();
  const output = redactText(text);
  return { output, ms: performance.now() - started };
}

describe('redactText on adversarial input', () => {
  beforeAll(() => {
    // The first calls compile the patterns; what is bounded here is the work per input.
    for (const sample of DETECTED_SAMPLES) redactText(sample.text);
  });

  describe.each(ADVERSARIAL_INPUTS.map((input) => [input.name, input] as const))('%s', (_name, input) => {
    it(`stays linear (aimed at: ${input.rule})`, () => {
      for (const { length, boundMs } of SIZES) {
        const text = input.build(length);
        expect(text).toHaveLength(length);
        const { output, ms } = timed(text);
        expect(ms).toBeLessThan(boundMs);
        if (input.unchanged) expect(output === text).toBe(true);
      }
    });

    it('still redacts what follows it', () => {
      const run = input.build(64 * 1024);
      for (const sample of DETECTED_SAMPLES) {
        const output = redactText(`${run}\n${sample.text}`);
        expect(output.slice(output.lastIndexOf('\n') + 1)).toBe(sample.redacted);
      }
    });
  });

  it('holds on a ticket at the body limit made of every family at once', () => {
    const slice = Math.floor(MiB / ADVERSARIAL_INPUTS.length);
    const text = ADVERSARIAL_INPUTS.map((input) => input.build(slice)).join('\n');
    expect(timed(text).ms).toBeLessThan(1000);
  });
});
