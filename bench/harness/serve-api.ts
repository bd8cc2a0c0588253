// Child process: the real API app (as in production, minus logging), on a free port of 127.0.0.1.
import 'reflect-metadata';
import { getHeapStatistics } from 'node:v8';
import { loadConfigOrExit } from '@app/config';
import { startTelemetry } from '@app/telemetry';
import { serveUntilStopped } from './processes.js';

const config = loadConfigOrExit(process.env);
// As apps/api/src/main.ts: with OTEL_EXPORTER_OTLP_ENDPOINT set, the app is traced (and is loaded
// only once tracing has started); unset, nothing is started.
await startTelemetry(config.telemetry, 'api');
const { createApiApp } = await import('../../apps/api/src/app.factory.js');
const app = await createApiApp(config);
await app.listen(0, '127.0.0.1');
const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
// `memory`: the V8 heap as the process itself sees it, for bench:memory (RSS is read from /proc).
serveUntilStopped(url, () => app.close(), {
  memory: () => ({ ...process.memoryUsage(), heapLimit: getHeapStatistics().heap_size_limit }),
});
