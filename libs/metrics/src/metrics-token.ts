import { timingSafeEqual } from 'node:crypto';

/** With METRICS_TOKEN set, a scrape must send `Authorization: Bearer <token>`; without it, anyone may. */
export function metricsAuthorized(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(authorization ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

interface ScrapeRequest {
  headers: { authorization?: string };
}
interface ScrapeReply {
  status(code: number): ScrapeReply;
  header(name: string, value: string): ScrapeReply;
  send(body: unknown): unknown;
}

/** The `GET /metrics` handler the API and the worker's health server share. */
export function metricsHandler(
  metrics: { registry: { contentType: string; metrics(): Promise<string> } },
  token?: string,
) {
  return async (request: ScrapeRequest, reply: ScrapeReply): Promise<unknown> => {
    if (!metricsAuthorized(token, request.headers.authorization)) {
      return reply.status(401).header('www-authenticate', 'Bearer').send({ error: 'metrics token required' });
    }
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}
