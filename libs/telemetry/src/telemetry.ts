import { register } from 'node:module';
import type { TelemetryConfig } from '@app/config';
import { BullMQOtel } from 'bullmq-otel';

/**
 * The modules patched as they are imported (as ES modules, through import-in-the-middle's loader
 * hook); only these are wrapped. CommonJS requires (TypeORM's `pg`, Fastify's `http`) are patched
 * by require-in-the-middle, and undici and Fastify are traced through diagnostics channels.
 */
const HOOKED_MODULES = ['pg', 'pg-pool', 'ioredis', 'http', 'https', 'node:http', 'node:https'];

let running: { shutdown(): Promise<void> } | null = null;

/**
 * Starts tracing when an OTLP endpoint is configured, and does nothing otherwise: the SDK is not
 * even loaded. It must run before pg, ioredis, node:http and Fastify are imported, so each app's
 * main.ts imports the app itself only after it (docs/operations.md, "Traces").
 */
export async function startTelemetry(config: TelemetryConfig, app: 'api' | 'worker'): Promise<boolean> {
  if (!config.endpoint || running) return running !== null;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: { include: HOOKED_MODULES },
  });
  const [{ otlpExporter, startSdk }, { BatchSpanProcessor }] = await Promise.all([
    import('./sdk.js'),
    import('@opentelemetry/sdk-trace-base'),
  ]);
  const processor = new BatchSpanProcessor(otlpExporter(config.endpoint));
  running = startSdk(config.serviceName ?? `ticket-judge-${app}`, processor, config.sampleRatio);
  return true;
}

/** Exports the spans still batched and stops the SDK; nothing when tracing is off. */
export async function stopTelemetry(): Promise<void> {
  const sdk = running;
  running = null;
  await sdk?.shutdown();
}

/**
 * BullMQ's telemetry option: with tracing on, adding a job records the active context in the job,
 * and processing it continues that trace (BullMQ's own spans, `add <queue>.<job>` and
 * `process <queue>`). Off: undefined, and BullMQ runs without any telemetry code.
 */
export function queueTelemetry(config: TelemetryConfig): BullMQOtel | undefined {
  return config.endpoint ? new BullMQOtel({ tracerName: 'bullmq' }) : undefined;
}
