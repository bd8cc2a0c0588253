import { SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import {
  ParentBasedSampler,
  SamplingDecision,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';

/**
 * Starts a trace for work that arrives (an HTTP request, a job taken from a queue, a query or call
 * made outside both), never for a worker's own housekeeping: BullMQ opens an internal root span
 * each time a worker polls for a job, renews its locks or checks for stalled jobs, which would be
 * a trace every few seconds per queue with nothing to judge in it.
 */
export class ArrivingWorkSampler implements Sampler {
  shouldSample(
    _context: Context,
    _traceId: string,
    _name: string,
    kind: SpanKind,
    _attributes: Attributes,
  ): SamplingResult {
    return {
      decision:
        kind === SpanKind.INTERNAL ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
    };
  }

  toString(): string {
    return 'ArrivingWorkSampler';
  }
}

/** Children follow their parent (a dropped poll drops its Redis commands); roots go by kind. */
export function traceSampler(): Sampler {
  return new ParentBasedSampler({ root: new ArrivingWorkSampler() });
}
