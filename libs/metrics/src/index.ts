export { Metrics } from './metrics.js';
export { MetricsModule } from './metrics.module.js';
export { metricsAuthorized } from './metrics-token.js';
