import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { instrumentations } from './instrumentations.js';
import { traceSampler } from './root-sampler.js';

/** The exporter for an OTLP/HTTP base URL: JSON to `<endpoint>/v1/traces`, as the spec names it. */
export function otlpExporter(endpoint: string): SpanExporter {
  const base = endpoint.endsWith('/') ? endpoint : `${endpoint}/`;
  return new OTLPTraceExporter({ url: new URL('v1/traces', base).href });
}

/**
 * Starts the tracing SDK: traces only (the service's metrics stay with prom-client, and the SDK's
 * OTLP metrics and logs, on by default, are turned off), handed to `processor` (a batch processor
 * in the apps; the specs' in-memory exporter).
 */
export function startSdk(serviceName: string, processor: SpanProcessor, sampleRatio?: number): RunningSdk {
  const loaded = instrumentations();
  const sdk = new NodeSDK({
    serviceName,
    spanProcessors: [processor],
    sampler: traceSampler(sampleRatio),
    instrumentations: loaded,
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return {
    async shutdown() {
      // The SDK's shutdown leaves its instrumentations hooked: Fastify's stays subscribed to the
      // process-wide fastify.initialization channel and would trace (and decorate) every later
      // Fastify instance of the process, as it did the next specs of a Jest worker.
      try {
        await sdk.shutdown();
      } finally {
        for (const instrumentation of loaded) instrumentation.disable();
      }
    },
  };
}

/** A started SDK; shutting it down exports what is batched and unhooks every instrumentation. */
export interface RunningSdk {
  shutdown(): Promise<void>;
}
