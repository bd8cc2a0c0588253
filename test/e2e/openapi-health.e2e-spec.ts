import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { Client } from '../support/client.js';
import { OPENAPI_TAGS } from '../../apps/api/src/openapi.js';

describe('OpenAPI document and health', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('serves the OpenAPI document with version 0.1.0, the four security schemes and every route', async () => {
    const res = await new Client(api.url).get('/docs/openapi.json');
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.info.version).toBe('0.1.0');
    expect(doc.components.securitySchemes).toEqual({
      'api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-api-key' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      session: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'tj_session' }),
      oauth2: expect.objectContaining({ type: 'oauth2' }),
    });
    expect(doc.paths['/mcp'].post.security).toEqual([{ oauth2: [] }]);
    for (const path of [
      '/api/auth/sign-up',
      '/api/auth/sign-in',
      '/api/auth/sign-out',
      '/api/auth/me',
      '/app/keys',
      '/app/keys/{id}/rotate',
      '/app/keys/{id}',
      '/app/oauth-clients',
      '/app/oauth-clients/{id}',
      '/mcp',
      '/oauth/register',
      '/oauth/token',
      '/oauth/revoke',
      '/.well-known/oauth-authorization-server',
      '/.well-known/oauth-protected-resource/mcp',
      '/healthz',
      '/readyz',
    ]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    const create = doc.paths['/app/keys'].post;
    expect(create.security).toEqual([{ session: [] }]);
    expect(create.responses['201']).toBeDefined();
    expect(create.responses['401'].description).toContain('sign in required');
    expect(create.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreateApiKeyDto',
    );
    expect(doc.components.schemas.ErrorBodyDto.required).toEqual(['error']);
  });

  it("lists an API user's schemes first in Swagger UI's Authorize, and one tag of a fixed set per operation", async () => {
    const doc = (await new Client(api.url).get('/docs/openapi.json')).body;
    // Swagger UI lists the schemes in the document's order.
    expect(Object.keys(doc.components.securitySchemes)).toEqual(['api-key', 'bearer', 'session', 'oauth2']);
    expect(doc.components.securitySchemes['api-key'].description).toContain('API key');
    const names = OPENAPI_TAGS.map(([name]) => name);
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(names);
    const untidy: string[] = [];
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, { tags?: string[] }>>,
    ))
      for (const [method, operation] of Object.entries(item))
        if (operation.tags?.length !== 1 || !names.includes(operation.tags[0]))
          untidy.push(`${method} ${path}: ${JSON.stringify(operation.tags)}`);
    expect(untidy).toEqual([]);
    // Every tag of the list is used.
    const used = new Set(
      Object.values(doc.paths as Record<string, Record<string, { tags: string[] }>>).flatMap((item) =>
        Object.values(item).flatMap((operation) => operation.tags),
      ),
    );
    expect(names.filter((name) => !used.has(name))).toEqual([]);
  });

  it('documents the product routes with their permission, security and error responses', async () => {
    const doc = (await new Client(api.url).get('/docs/openapi.json')).body;
    const routes: Array<[string, string, string]> = [
      ['/api/packs', 'get', 'packs:read'],
      ['/api/packs', 'post', 'packs:write'],
      ['/api/packs/import', 'post', 'packs:write'],
      ['/api/packs/{packId}', 'get', 'packs:read'],
      ['/api/packs/{packId}', 'patch', 'packs:write'],
      ['/api/packs/{packId}', 'delete', 'packs:write'],
      ['/api/packs/{packId}/publish', 'post', 'packs:write'],
      ['/api/packs/{packId}/export', 'get', 'packs:read'],
      ['/api/packs/{packId}/versions', 'get', 'packs:read'],
      ['/api/packs/{packId}/compare', 'get', 'packs:read'],
      ['/api/packs/{packId}/versions/{versionId}/restore', 'post', 'packs:write'],
      ['/api/packs/{packId}/threshold-preview', 'get', 'judgments:read'],
      ['/api/judge', 'post', 'judgments:run'],
      ['/api/evaluations', 'get', 'judgments:read'],
      ['/api/evaluations/{id}', 'get', 'judgments:read'],
      ['/api/evaluations/export', 'get', 'judgments:read'],
      ['/api/labels/export', 'get', 'judgments:read'],
      ['/api/reviews', 'get', 'judgments:read'],
      ['/api/stats', 'get', 'judgments:read'],
      ['/api/evaluations/{id}/labels', 'post', 'labels:write'],
      ['/api/evaluations/{id}/labels/{labelId}', 'delete', 'labels:write'],
      ['/api/packs/{packId}/calibration', 'get', 'judgments:read'],
      ['/api/datasets', 'post', 'packs:write'],
      ['/api/datasets', 'get', 'packs:read'],
      ['/api/datasets/{datasetId}/tickets', 'post', 'packs:write'],
      ['/api/datasets/{datasetId}/tickets/{ticketId}', 'delete', 'packs:write'],
      ['/api/packs/{packId}/dataset-template', 'get', 'packs:read'],
      ['/api/simulations', 'post', 'simulations:run'],
      ['/api/simulations/{id}', 'get', 'simulations:run'],
      ['/api/simulations/{id}/compare/{otherId}', 'get', 'simulations:run'],
      ['/api/simulations/{id}/disagreements', 'get', 'simulations:run'],
      ['/api/simulations/{id}/export', 'get', 'simulations:run'],
      ['/api/simulations/{id}/compare/{otherId}/export', 'get', 'simulations:run'],
      ['/api/webhook-endpoints', 'post', 'packs:write'],
      ['/api/webhook-endpoints', 'get', 'packs:read'],
      ['/api/webhooks/inbound', 'post', 'judgments:run'],
      ['/api/webhook-deliveries', 'get', 'packs:read'],
      ['/api/webhook-deliveries/{id}/redeliver', 'post', 'packs:write'],
    ];
    for (const [path, method, permission] of routes) {
      const operation = doc.paths[path]?.[method];
      expect(operation).toBeDefined();
      expect(operation['x-permission']).toBe(permission);
      expect(operation.responses['403'].description).toContain(`missing permission ${permission}`);
      expect(operation.responses['401']).toBeDefined();
    }
    const judge = doc.paths['/api/judge'].post;
    expect(judge.security).toEqual([{ 'api-key': [] }, { bearer: [] }]);
    expect(judge.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]),
    );
    expect(judge.responses['409'].description).toContain('pack has no published version');
    // Each callback documents its body with a schema that exists, holding the fields it is sent with.
    const callbackBody = (path: string, name: string) => {
      const callback = doc.paths[path].post.callbacks[name]['{$request.body#/url}'].post;
      const ref: string = callback.requestBody.content['application/json'].schema.$ref;
      return doc.components.schemas[ref.replace('#/components/schemas/', '')];
    };
    expect(callbackBody('/api/webhooks/inbound', 'evaluation.completed')).toMatchObject({
      description: expect.stringContaining('X-Service-Signature'),
      properties: {
        type: { enum: ['evaluation.completed'] },
        eventId: {},
        deliveryId: {},
        sentAt: {},
        evaluation: {},
      },
    });
    expect(callbackBody('/api/webhook-endpoints', 'simulation.completed')).toMatchObject({
      properties: { type: { enum: ['simulation.completed', 'simulation.failed'] }, simulation: {} },
    });
    expect(doc.paths['/api/webhooks/inbound'].post.security).toEqual([{ 'api-key': [] }, { bearer: [] }]);
    expect(doc.paths['/api/packs'].get.security).toEqual([
      { 'api-key': [] },
      { bearer: [] },
      { session: [] },
    ]);
    expect(doc.components.schemas.JudgmentResultDto.required).toEqual(
      expect.arrayContaining(['status', 'answers', 'reviewReasons', 'modelId', 'latencyMs']),
    );
  });

  it('serves Swagger UI at /docs', async () => {
    const res = await new Client(api.url).get('/docs');
    expect(res.status).toBe(200);
    expect(res.text).toContain('swagger-ui');
  });

  it('lets no other site frame /docs, its assets or the document', async () => {
    const html = await new Client(api.url).get('/docs');
    // Swagger UI's assets, as its page links them.
    const assets = [...html.text.matchAll(/(?:href|src)="\.?\/?([^"]+\.(?:css|js|png))"/g)].map(
      (match) => `/docs/${match[1].replace(/^docs\//, '')}`,
    );
    expect(assets).toEqual(expect.arrayContaining(['/docs/swagger-ui.css', '/docs/swagger-ui-init.js']));
    for (const path of ['/docs', '/docs/', '/docs/openapi.json', '/docs/openapi.yaml', ...assets]) {
      const res = await new Client(api.url).get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect({ path, csp: res.headers.get('content-security-policy') }).toEqual({
        path,
        csp: "frame-ancestors 'none'",
      });
      expect({ path, xfo: res.headers.get('x-frame-options') }).toEqual({ path, xfo: 'DENY' });
    }
  });

  it('answers /healthz and /readyz when Postgres and Redis are up', async () => {
    const live = await new Client(api.url).get('/healthz');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await new Client(api.url).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
  });
});

describe('readiness without Redis', () => {
  let api: TestApi;

  beforeAll(async () => {
    // Nothing listens on port 1: the API still boots and serves, but is not ready.
    api = await startApi({ REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers /readyz with 503 naming the failed dependency, while /healthz stays 200', async () => {
    const ready = await new Client(api.url).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ error: 'not ready', checks: { database: 'up', redis: 'down' } });
    expect((await new Client(api.url).get('/healthz')).status).toBe(200);
  });
});
