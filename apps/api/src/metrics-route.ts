import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AppConfig } from '@app/config';
import { Metrics, metricsHandler } from '@app/metrics';

/**
 * `GET /metrics` in Prometheus' text format, and the HTTP metrics behind it: every response's
 * duration by method, route pattern (never the raw URL, so ids do not multiply the series) and
 * status, and 429s by route. With METRICS_TOKEN set, a scrape needs it as a bearer token.
 */
export function serveMetrics(app: NestFastifyApplication, config: AppConfig): void {
  const metrics = app.get(Metrics);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = reply.statusCode;
    metrics.httpDuration.observe(
      { method: request.method, route, status: String(status) },
      reply.elapsedTime / 1000,
    );
    if (status === 429) metrics.rateLimited.inc({ route });
    done();
  });
  fastify.get('/metrics', metricsHandler(metrics, config.metricsToken));
}
