import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { traceSampler } from './root-sampler.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

function decide(kind: SpanKind, parent?: 'sampled' | 'dropped', ratio?: number, traceId = TRACE_ID) {
  const context = parent
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId,
        spanId: 'b7ad6b7169203331',
        traceFlags: parent === 'sampled' ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  return traceSampler(ratio).shouldSample(context, traceId, 'span', kind, {}, []).decision;
}

describe('traceSampler', () => {
  it('starts traces for requests, jobs and calls, not for internal housekeeping roots', () => {
    expect(decide(SpanKind.SERVER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(SpanKind.CONSUMER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(SpanKind.PRODUCER)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    // BullMQ's `getNextJob`, lock renewal and stalled-job checks.
    expect(decide(SpanKind.INTERNAL)).toBe(SamplingDecision.NOT_RECORD);
  });

  it('follows the parent: a job continues its producer’s trace, a dropped poll drops its commands', () => {
    expect(decide(SpanKind.INTERNAL, 'sampled')).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(SpanKind.CLIENT, 'dropped')).toBe(SamplingDecision.NOT_RECORD);
  });

  it('traces the configured share of arriving work, by trace id, and always follows a sampled parent', () => {
    // TraceIdRatioBasedSampler XORs the trace id's four 32-bit words and compares the result with
    // ratio × (2^32 - 1): 0x00000001 is under a quarter of it, 0xffffffff is not.
    const low = '00000000000000000000000000000001';
    const high = '000000000000000000000000ffffffff';
    expect(decide(SpanKind.SERVER, undefined, 0.25, low)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(SpanKind.SERVER, undefined, 0.25, high)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(SpanKind.SERVER, undefined, 0, low)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(SpanKind.SERVER, 'sampled', 0, high)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(SpanKind.INTERNAL, undefined, 1, low)).toBe(SamplingDecision.NOT_RECORD);
  });

  it('traces about the ratio of many random trace ids', () => {
    let sampled = 0;
    for (let i = 0; i < 4000; i++) {
      const traceId = randomBytes(16).toString('hex');
      if (decide(SpanKind.SERVER, undefined, 0.1, traceId) === SamplingDecision.RECORD_AND_SAMPLED) sampled++;
    }
    // Binomial(4000, 0.1): mean 400, sd 19; ±100 is over 5 sd.
    expect(sampled).toBeGreaterThan(300);
    expect(sampled).toBeLessThan(500);
  });
});
