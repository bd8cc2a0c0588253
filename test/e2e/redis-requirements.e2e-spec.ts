import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startApi } from '../support/api.js';
import { freePort, runNode, type RunningProcess } from '../support/process.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

const API = 'dist/apps/api/src/main.js';
const WORKER = 'dist/apps/worker/src/main.js';
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-redisreq`;
const quiet = { NODE_ENV: 'test', LOG_LEVEL: 'info', MIGRATE_ON_START: 'false', REDIS_PREFIX: PREFIX };

interface LogLine {
  level: number;
  msg: string;
  context?: string;
}

/** The boot check's JSON log lines (the API's, or the worker's once its logger is pino). */
function checkLines(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.context === 'RedisRequirements');
}

/** A Redis Cluster of one node holding every slot, as the issue describes. */
async function startClusterNode(): Promise<RedisServer> {
  const node = await startRedisServer(['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf']);
  const redis = new Redis(node.url, { maxRetriesPerRequest: 1 });
  try {
    await redis.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
    await eventually(async () => {
      const info = String(await redis.call('CLUSTER', 'INFO'));
      return info.includes('cluster_state:ok') ? true : undefined;
    }, 10_000);
  } finally {
    redis.disconnect();
  }
  return node;
}

/**
 * The built API as a process of its own: the check's lines in its standard output. (Pino's root
 * logger is one per process, so only the first in-process API of a file logs to its capture.)
 */
async function bootApi(redisUrl: string): Promise<RunningProcess> {
  const api = runNode(API, { ...quiet, REDIS_URL: redisUrl, PORT: String(await freePort()) });
  await api.waitFor(/API listening/);
  return api;
}

async function stopApi(api: RunningProcess): Promise<void> {
  api.child.kill('SIGTERM');
  await api.exited();
}

const EVICTION_WARNING = (port: number) =>
  `Redis maxmemory-policy at 127.0.0.1:${port} is allkeys-lru, not noeviction: when Redis is full it can evict ` +
  "BullMQ's job keys, and those jobs are lost. Set maxmemory-policy to noeviction " +
  "(CONFIG SET maxmemory-policy noeviction, or the managed service's parameter settings).";

describe('Redis requirements checked at boot', () => {
  let evicting: RedisServer;
  let managed: RedisServer;
  let sound: RedisServer;
  let cluster: RedisServer;

  beforeAll(async () => {
    [evicting, managed, sound, cluster] = await Promise.all([
      startRedisServer(['--maxmemory-policy', 'allkeys-lru']),
      // A managed Redis that refuses CONFIG: the policy is read from INFO memory instead.
      startRedisServer(['--maxmemory-policy', 'volatile-lru', '--rename-command', 'CONFIG', '']),
      startRedisServer(),
      startClusterNode(),
    ]);
  });

  afterAll(async () => {
    await Promise.all([evicting, managed, sound, cluster].map((server) => server?.stop()));
  });

  it('the API warns once about an evicting Redis, naming the policy, the lost jobs and the fix', async () => {
    const api = await startApi({ REDIS_URL: evicting.url, REDIS_PREFIX: PREFIX }, { captureLogs: true });
    try {
      expect(checkLines(api.logs.text())).toEqual([
        expect.objectContaining({ level: 40, msg: EVICTION_WARNING(evicting.port) }),
      ]);
    } finally {
      await api.close();
    }
  });

  it('the worker warns too, then runs', async () => {
    const worker = await startWorker({ REDIS_URL: evicting.url, REDIS_PREFIX: PREFIX });
    try {
      expect(checkLines(worker.output())).toEqual([
        expect.objectContaining({ level: 40, msg: EVICTION_WARNING(evicting.port) }),
      ]);
    } finally {
      await stopWorker(worker);
    }
  }, 90_000);

  it('reads the policy from INFO memory when CONFIG is refused', async () => {
    const api = await bootApi(managed.url);
    try {
      expect(checkLines(api.output())).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringContaining(`at 127.0.0.1:${managed.port} is volatile-lru, not noeviction`),
        }),
      ]);
    } finally {
      await stopApi(api);
    }
  });

  it('says nothing is wrong with noeviction', async () => {
    const api = await bootApi(sound.url);
    try {
      expect(checkLines(api.output())).toEqual([
        expect.objectContaining({
          level: 30,
          msg: expect.stringMatching(
            new RegExp(
              `^Redis at 127\\.0\\.0\\.1:${sound.port} meets BullMQ's requirements \\(version \\d+\\.\\d+\\.\\d+, maxmemory-policy noeviction, not in Cluster mode\\)$`,
            ),
          ),
        }),
      ]);
    } finally {
      await stopApi(api);
    }
  });

  it('runs BullMQ on a standalone Redis with a hash-tagged prefix', async () => {
    const prefix = `{${PREFIX}-tagged}`;
    const worker = await startWorker({ REDIS_URL: sound.url, REDIS_PREFIX: prefix, WORKER_SWEEP_MS: '200' });
    const redis = new Redis(sound.url, { maxRetriesPerRequest: 1 });
    try {
      // The sweep runs every 200 ms: jobs are scheduled, taken and completed under the tagged prefix.
      const completed = await eventually(async () => {
        const count = await redis.zcard(`${prefix}:maintenance:completed`);
        return count > 0 ? count : undefined;
      }, 15_000);
      expect(completed).toBeGreaterThan(0);
      expect(checkLines(worker.output())).toEqual([expect.objectContaining({ level: 30 })]);
    } finally {
      redis.disconnect();
      await stopWorker(worker);
    }
  }, 90_000);

  it('boots at once while Redis is away, and checks Redis once it answers', async () => {
    const away = await startRedisServer(['--maxmemory-policy', 'allkeys-lfu']);
    await away.stop();
    const started = Date.now();
    const api = await bootApi(away.url);
    try {
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(checkLines(api.output())).toEqual([
        expect.objectContaining({
          level: 40,
          msg: expect.stringMatching(
            new RegExp(
              `^Redis requirements not checked at boot: Redis at 127\\.0\\.0\\.1:${away.port} did not answer \\(.+\\); they will be checked when it does$`,
            ),
          ),
        }),
      ]);
      await away.restart();
      await api.waitFor(/is allkeys-lfu, not noeviction/);
      expect(checkLines(api.output())).toHaveLength(2);
    } finally {
      await stopApi(api);
      await away.stop();
    }
  });

  describe('Redis Cluster', () => {
    it('proves the reason: Cluster refuses multi-key commands across slots, as BullMQ sends them', async () => {
      const redis = new Redis(cluster.url, { maxRetriesPerRequest: 1 });
      try {
        await expect(redis.rpoplpush('tj:webhooks:wait', 'tj:webhooks:active')).rejects.toThrow(/CROSSSLOT/);
      } finally {
        redis.disconnect();
      }
    });

    it.each([
      ['the API', API, PREFIX],
      ['the worker', WORKER, PREFIX],
      ['the API with a hash-tagged prefix', API, `{${PREFIX}}`],
    ])(
      '%s refuses to start with one error line, before it queues anything',
      async (_name, script, prefix) => {
        const child = runNode(script, {
          ...quiet,
          REDIS_URL: cluster.url,
          REDIS_PREFIX: prefix,
          PORT: String(await freePort()),
        });
        const { code } = await child.exited();
        expect(code).toBe(1);
        const refusal =
          `Redis at 127.0.0.1:${cluster.port} runs in Cluster mode (cluster_enabled:1), which this service does not support: ` +
          'its Redis connections are not cluster-aware, so queues and rate limits would fail with MOVED or CROSSSLOT errors. ' +
          'Point REDIS_URL at a standalone Redis (a primary with replicas is fine) or a managed Redis with cluster mode disabled.';
        // Logged once (the API logs JSON; the worker's logger is not pino yet, so Nest prints it), and
        // the process exits without reporting it again.
        const [logged, ...others] = child
          .output()
          .split('\n')
          .filter((line) => line.includes(refusal));
        expect(others).toEqual([]);
        if (script === API) expect(JSON.parse(logged)).toMatchObject({ level: 50, msg: refusal });
        else expect(logged).toMatch(/ERROR.*\[RedisRequirements\]/);
        expect(child.output()).not.toMatch(/\n\s+at /);
        const redis = new Redis(cluster.url, { maxRetriesPerRequest: 1 });
        try {
          // Only what a BullMQ queue writes when it is created: no job, no schedule.
          expect((await redis.keys('*')).filter((key) => !key.endsWith(':meta'))).toEqual([]);
        } finally {
          redis.disconnect();
        }
      },
    );
  });
});
