import { describe, expect, it } from '@jest/globals';
import { checkRedisRequirements, parseInfo } from './redis-requirements.js';

const ADDRESS = 'redis.internal:6379';

function info({
  version = '7.2.4',
  policy = 'noeviction',
  cluster = 0,
  extra = '',
}: { version?: string; policy?: string | null; cluster?: number; extra?: string } = {}): string {
  return [
    '# Server',
    `redis_version:${version}`,
    'redis_mode:standalone',
    extra,
    '',
    '# Memory',
    'used_memory:1048576',
    ...(policy === null ? [] : [`maxmemory_policy:${policy}`]),
    '',
    '# Cluster',
    `cluster_enabled:${cluster}`,
    '',
  ].join('\r\n');
}

describe('parseInfo', () => {
  it('reads field:value lines and skips section headers', () => {
    const fields = parseInfo('# Server\r\nredis_version:7.2.4\r\nexecutable:/usr/bin/redis-server\r\n\r\n');
    expect([...fields]).toEqual([
      ['redis_version', '7.2.4'],
      ['executable', '/usr/bin/redis-server'],
    ]);
  });
});

describe('checkRedisRequirements', () => {
  it('finds nothing wrong with a standalone Redis 7 on noeviction', () => {
    expect(
      checkRedisRequirements({ info: info(), config: ['maxmemory-policy', 'noeviction'] }, ADDRESS),
    ).toEqual({
      version: '7.2.4',
      maxmemoryPolicy: 'noeviction',
      cluster: false,
      findings: [],
    });
  });

  it('warns once, naming the policy, the lost jobs and the fix, when eviction is on', () => {
    const { findings } = checkRedisRequirements(
      { info: info({ policy: 'allkeys-lru' }), config: ['maxmemory-policy', 'allkeys-lru'] },
      ADDRESS,
    );
    expect(findings).toEqual([
      {
        level: 'warn',
        message:
          'Redis maxmemory-policy at redis.internal:6379 is allkeys-lru, not noeviction: when Redis is full it can ' +
          "evict BullMQ's job keys, and those jobs are lost. Set maxmemory-policy to noeviction " +
          "(CONFIG SET maxmemory-policy noeviction, or the managed service's parameter settings).",
      },
    ]);
  });

  it('prefers CONFIG GET, and reads INFO memory when CONFIG is refused', () => {
    const configured = checkRedisRequirements(
      { info: info({ policy: 'noeviction' }), config: { 'maxmemory-policy': 'volatile-lru' } },
      ADDRESS,
    );
    expect(configured.maxmemoryPolicy).toBe('volatile-lru');
    const fromInfo = checkRedisRequirements({ info: info({ policy: 'volatile-ttl' }) }, ADDRESS);
    expect(fromInfo.maxmemoryPolicy).toBe('volatile-ttl');
    expect(fromInfo.findings).toEqual([
      { level: 'warn', message: expect.stringContaining('is volatile-ttl, not noeviction') },
    ]);
  });

  it('says once, as information, that the policy could not be checked when neither reports it', () => {
    const { findings } = checkRedisRequirements({ info: info({ policy: null }) }, ADDRESS);
    expect(findings).toEqual([
      {
        level: 'info',
        message:
          'Redis maxmemory-policy at redis.internal:6379 could not be checked (CONFIG GET and INFO memory did not ' +
          'report it): make sure it is noeviction, or Redis may evict queued jobs when it is full.',
      },
    ]);
  });

  it('refuses Cluster mode with one error naming what to use instead, hash-tagged prefix or not', () => {
    const { cluster, findings } = checkRedisRequirements({ info: info({ cluster: 1 }) }, ADDRESS);
    expect(cluster).toBe(true);
    expect(findings).toEqual([
      {
        level: 'error',
        message: expect.stringMatching(
          /^Redis at redis\.internal:6379 runs in Cluster mode \(cluster_enabled:1\), which this service does not support: .* Point REDIS_URL at a standalone Redis/,
        ),
      },
    ]);
  });

  it.each([
    ['4.0.14', /older than 5\.0\.0, the oldest BullMQ supports: its queues will not start/],
    ['6.0.16', /older than 6\.2\.0, the oldest BullMQ recommends/],
  ])('warns about Redis %s', (version, message) => {
    const { findings } = checkRedisRequirements({ info: info({ version }) }, ADDRESS);
    expect(findings).toEqual([{ level: 'warn', message: expect.stringMatching(message) }]);
  });

  it.each(['6.2.0', '7.0.15', '8.0.2'])('accepts Redis %s', (version) => {
    expect(checkRedisRequirements({ info: info({ version }) }, ADDRESS).findings).toEqual([]);
  });

  it('leaves the version of Valkey and Dragonfly alone, as BullMQ does', () => {
    for (const extra of ['valkey_version:8.0.1', 'dragonfly_version:df-v1.21.0'])
      expect(checkRedisRequirements({ info: info({ version: '4.0.0', extra }) }, ADDRESS).findings).toEqual(
        [],
      );
  });

  it('warns when INFO is refused, since BullMQ reads it too', () => {
    const { findings, cluster } = checkRedisRequirements(
      { config: ['maxmemory-policy', 'noeviction'] },
      ADDRESS,
    );
    expect(cluster).toBeUndefined();
    expect(findings).toEqual([
      { level: 'warn', message: expect.stringMatching(/^Redis at redis\.internal:6379 refused INFO/) },
    ]);
  });
});
