export { startTelemetry, stopTelemetry, queueTelemetry } from './telemetry.js';
