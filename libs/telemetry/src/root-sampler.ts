import { SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import {
  ParentBasedSampler,
  SamplingDecision,
  TraceIdRatioBasedSampler,
  type Sampler,
  type SamplingResult,
} from '@opentelemetry/sdk-trace-base';

/**
 * Starts a trace for work that arrives (an HTTP request, a job taken from a queue, a query or call
 * made outside both), never for a worker's own housekeeping: BullMQ opens an internal root span
 * each time a worker polls for a job, renews its locks or checks for stalled jobs, which would be
 * a trace every few seconds per queue with nothing to judge in it. Of arriving work, `ratio` is
 * traced, chosen by trace id (OpenTelemetry's `traceidratio`).
 */
export class ArrivingWorkSampler implements Sampler {
  private readonly byTraceId: Sampler;

  constructor(private readonly ratio = 1) {
    this.byTraceId = new TraceIdRatioBasedSampler(ratio);
  }

  shouldSample(
    context: Context,
    traceId: string,
    name: string,
    kind: SpanKind,
    attributes: Attributes,
  ): SamplingResult {
    if (kind === SpanKind.INTERNAL) return { decision: SamplingDecision.NOT_RECORD };
    return this.byTraceId.shouldSample(context, traceId, name, kind, attributes, []);
  }

  toString(): string {
    return `ArrivingWorkSampler{ratio=${this.ratio}}`;
  }
}

/**
 * Children follow their parent (a dropped poll drops its Redis commands; a caller's sampled
 * `traceparent` is traced whatever the ratio); roots go by kind, then by `ratio` (default 1).
 */
export function traceSampler(ratio?: number): Sampler {
  return new ParentBasedSampler({ root: new ArrivingWorkSampler(ratio) });
}
