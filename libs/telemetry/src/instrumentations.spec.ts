import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SpanKind, trace } from '@opentelemetry/api';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { instrumentations } from './instrumentations.js';
import { startSdk, type RunningSdk } from './sdk.js';

const SECRETS = {
  apiKey: 'tj_live_' + 'K'.repeat(49),
  bearer: 'bearer-marker-7c1f',
  cookie: 'cookie-marker-91ab',
  password: 'password-marker-33de',
  ticket: 'ticket-marker-a0b2',
  queryToken: 'query-marker-5e5e',
  next: 'next-marker-1d1d',
  userInfo: 'userinfo-marker-8f8f',
};

/** Everything a span exports, as text: name, attributes, events and their attributes, status. */
const exported = (spans: ReadableSpan[]) =>
  JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
      links: span.links,
    })),
  );

describe('instrumentations, exported to an in-memory exporter', () => {
  const exporter = new InMemorySpanExporter();
  let sdk: RunningSdk;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    sdk = startSdk('telemetry-spec', new SimpleSpanProcessor(exporter));
    // Loaded after the SDK, as the apps do: Fastify and undici are traced through diagnostics channels.
    const { default: Fastify } = await import('fastify');
    const server = Fastify();
    server.post('/api/auth/sign-in', async () => ({ ok: true }));
    server.get('/login', async () => 'page');
    await server.listen({ port: 0, host: '127.0.0.1' });
    const address = server.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    close = () => server.close();
  });
  afterAll(async () => {
    await close();
    await sdk.shutdown();
  });

  it('records requests and outgoing calls without headers, bodies, credentials or query values', async () => {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent();
    // Outgoing calls are traced within a request or a job (a root internal span would be dropped).
    await trace.getTracer('spec').startActiveSpan('job', { kind: SpanKind.CONSUMER }, async (job) => {
      const signIn = await request(
        `${url.replace('://', `://user:${SECRETS.userInfo}@`)}/api/auth/sign-in?token=${SECRETS.queryToken}`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${SECRETS.bearer}`,
            'x-api-key': SECRETS.apiKey,
            cookie: `tj_session=${SECRETS.cookie}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ password: SECRETS.password, ticket: SECRETS.ticket }),
          dispatcher,
        },
      );
      await signIn.body.text();
      const login = await request(`${url}/login?next=${SECRETS.next}&token=${SECRETS.queryToken}`, {
        dispatcher,
      });
      await login.body.text();
      await dispatcher.close();
      job.end();
    });

    const spans = exporter.getFinishedSpans();
    const client = spans.filter((span) => span.kind === SpanKind.CLIENT);
    expect(client.map((span) => span.attributes['url.full'])).toEqual([
      // undici itself leaves user info out of the request's origin.
      `${url}/api/auth/sign-in?token=[redacted]`,
      `${url}/login?next=[redacted]&token=[redacted]`,
    ]);
    const fastify = spans.filter((span) => span.name === 'request');
    expect(fastify.map((span) => span.attributes['url.path'])).toEqual(['/api/auth/sign-in', '/login']);
    for (const [what, value] of Object.entries(SECRETS)) {
      expect({ what, found: exported(spans).includes(value) }).toEqual({ what, found: false });
    }
  });

  it('keeps SQL parameters and Redis arguments out', () => {
    // Built only to read their settings: an instrumentation hooks itself in as it is made.
    const built = instrumentations();
    try {
      const [pg] = built.filter((each) => each instanceof PgInstrumentation);
      expect(pg.getConfig()).toMatchObject({ enhancedDatabaseReporting: false, requireParentSpan: true });
      const [redis] = built.filter((each) => each instanceof IORedisInstrumentation);
      const serializer = redis.getConfig().dbStatementSerializer!;
      expect(serializer('hset', ['tj:webhooks:1', 'data', SECRETS.ticket])).toBe('hset');
    } finally {
      for (const instrumentation of built) instrumentation.disable();
    }
  });
});

describe('an SDK that was shut down', () => {
  it('leaves the Fastify instances the process makes later alone', async () => {
    // The SDK above was started and shut down; a second one is too, as in a Jest worker's next spec.
    await startSdk('telemetry-spec-again', new SimpleSpanProcessor(new InMemorySpanExporter())).shutdown();
    const { default: Fastify } = await import('fastify');
    const server = Fastify();
    await server.ready();
    const symbols = Object.getOwnPropertySymbols(server).map((symbol) => symbol.description);
    expect(symbols).not.toContain('fastify otel instance');
    await server.close();
  });
});
