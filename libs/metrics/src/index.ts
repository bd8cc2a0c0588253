export { Metrics } from './metrics.js';
export { MetricsModule } from './metrics.module.js';
export { metricsAuthorized, metricsHandler } from './metrics-token.js';
