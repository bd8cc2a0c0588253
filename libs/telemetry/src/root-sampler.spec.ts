import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { traceSampler } from './root-sampler.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

function decide(kind: SpanKind, parent?: 'sampled' | 'dropped') {
  const context = parent
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: TRACE_ID,
        spanId: 'b7ad6b7169203331',
        traceFlags: parent === 'sampled' ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  return traceSampler().shouldSample(context, TRACE_ID, 'span', kind, {}, []).decision;
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
});
