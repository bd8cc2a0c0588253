import Fastify, { type FastifyInstance } from 'fastify';
import type { ReadinessService } from '@app/persistence';
import { metricsHandler, type Metrics } from '@app/metrics';

/** /healthz, /readyz and /metrics on WORKER_HEALTH_PORT (the worker serves no other HTTP). */
export async function startHealthServer(
  readiness: ReadinessService,
  port: number,
  host: string,
  metrics: Metrics,
  metricsToken?: string,
): Promise<FastifyInstance> {
  const server = Fastify({ logger: false });
  server.get('/healthz', (_request, reply) => reply.send({ status: 'ok' }));
  server.get('/readyz', async (_request, reply) => {
    const { ready, checks } = await readiness.check();
    return ready ? { status: 'ok', checks } : reply.status(503).send({ error: 'not ready', checks });
  });
  server.get('/metrics', metricsHandler(metrics, metricsToken));
  server.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'not found' }));
  await server.listen({ port, host });
  return server;
}
