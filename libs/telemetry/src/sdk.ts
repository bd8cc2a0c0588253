import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { instrumentations } from './instrumentations.js';
import { traceSampler } from './root-sampler.js';

/** The exporter for an OTLP/HTTP base URL: JSON to `<endpoint>/v1/traces`, as the spec names it. */
export function otlpExporter(endpoint: string): SpanExporter {
  const base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
  return new OTLPTraceExporter({ url: new URL('v1/traces', base).href });
}

/**
 * Starts the tracing SDK: traces only (the service's metrics stay with prom-client, and the SDK's
 * OTLP metrics and logs, on by default, are turned off), batched to `exporter`.
 */
export function startSdk(serviceName: string, exporter: SpanExporter): NodeSDK {
  const sdk = new NodeSDK({
    serviceName,
    spanProcessors: [new BatchSpanProcessor(exporter)],
    sampler: traceSampler(),
    instrumentations: instrumentations(),
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return sdk;
}
