import 'reflect-metadata';
import { loadConfigOrExit } from '@app/config';
import { startTelemetry } from '@app/telemetry';

// Tracing patches pg, ioredis and node:http as they are imported, so the app (serve.ts and all it
// imports) is loaded only once tracing has started; with no OTLP endpoint nothing is started.
const config = loadConfigOrExit();
await startTelemetry(config.telemetry, 'api');
const { serveApi } = await import('./serve.js');
await serveApi(config);
