import 'reflect-metadata';
import { loadConfigOrExit } from '@app/config';
import { startTelemetry } from '@app/telemetry';

// As in the API's main.ts: the worker is imported only once tracing has started (when it is on).
const config = loadConfigOrExit();
await startTelemetry(config.telemetry, 'worker');
const { serveWorker } = await import('./serve.js');
await serveWorker(config);
