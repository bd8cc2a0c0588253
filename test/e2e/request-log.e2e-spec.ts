import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  context?: string;
  req?: { method: string; url: string };
  route?: string;
  res?: { statusCode: number };
  responseTime?: number;
}

/** What the API logs at info (LOG_LEVEL=info, the default): boot and one line per request. */
describe('request and boot logs', () => {
  let api: TestApi;
  const lines = () =>
    api.logs
      .text()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);

  beforeAll(async () => {
    api = await startApi({}, { captureLogs: true });
  });
  afterAll(() => api.close());

  it("keeps Nest's route mapping out of info: no line per route or controller at boot", () => {
    const boot = lines();
    expect(
      boot.filter((line) => ['RouterExplorer', 'RoutesResolver', 'InstanceLoader'].includes(line.context!)),
    ).toEqual([]);
    // Nest's application lines still show.
    expect(boot.length).toBeLessThan(20);
  });

  it('writes one line per request: method, URL, route template, status and time, under its request id', async () => {
    const { keyed } = await newTenant(api.url);
    api.logs.clear();
    const id = randomUUID();
    const res = await keyed.get(`/api/packs/${id}?access_token=planted-secret`);
    expect(res.status).toBe(404);
    const reqId = res.headers.get('x-request-id')!;
    // The line is written once the answer is sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const mine = lines().filter((line) => line.reqId === reqId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'GET', url: `/api/packs/${id}?access_token=[redacted]` },
      route: '/api/packs/:packId',
      res: { statusCode: 404 },
    });
    expect(mine[0].responseTime).toEqual(expect.any(Number));
    expect(api.logs.text()).not.toContain('planted-secret');
    expect(api.logs.text()).not.toContain('incoming request');
  });
});
