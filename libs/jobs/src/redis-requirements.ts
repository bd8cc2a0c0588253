import { RedisConnection } from 'bullmq';

/** `error` stops the process at boot; `warn` and `info` are logged and the process runs on. */
export interface RedisFinding {
  level: 'error' | 'warn' | 'info';
  message: string;
}

/** What Redis answered; a command it refused (managed Redis often refuses CONFIG) is left out. */
export interface RedisAnswers {
  /** The text of `INFO` (server, memory and cluster sections at least). */
  info?: string;
  /** The reply to `CONFIG GET maxmemory-policy`. */
  config?: unknown;
}

export interface RedisRequirements {
  version?: string;
  maxmemoryPolicy?: string;
  cluster?: boolean;
  findings: RedisFinding[];
}

/** The `field:value` lines of an `INFO` reply; section headers and blank lines are skipped. */
export function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (line.startsWith('#') || colon <= 0) continue;
    fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return fields;
}

/** `CONFIG GET name` answers `[name, value]` (RESP2) or `{ name: value }` (RESP3). */
function configValue(reply: unknown, name: string): string | undefined {
  if (Array.isArray(reply)) {
    const at = reply.indexOf(name);
    return at >= 0 && typeof reply[at + 1] === 'string' ? (reply[at + 1] as string) : undefined;
  }
  if (reply && typeof reply === 'object') {
    const value = (reply as Record<string, unknown>)[name];
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

function versionBelow(version: string, minimum: string): boolean {
  const parts = (text: string) => (/^(\d+)\.(\d+)\.(\d+)/.exec(text) ?? []).slice(1).map(Number);
  const [given, wanted] = [parts(version), parts(minimum)];
  if (given.length < 3 || wanted.length < 3) return false;
  for (let i = 0; i < 3; i++) if (given[i] !== wanted[i]) return given[i] < wanted[i];
  return false;
}

/**
 * Turns Redis's answers into findings about what BullMQ needs: no Cluster mode (this service's
 * connections are not cluster-aware), `maxmemory-policy noeviction` (CONFIG GET first, else the
 * `maxmemory_policy` of INFO memory), and a version BullMQ supports. `address` is host:port only.
 */
export function checkRedisRequirements(answers: RedisAnswers, address: string): RedisRequirements {
  const info = answers.info === undefined ? undefined : parseInfo(answers.info);
  const findings: RedisFinding[] = [];
  const cluster = info === undefined ? undefined : info.get('cluster_enabled') === '1';
  if (cluster) {
    findings.push({
      level: 'error',
      message:
        `Redis at ${address} runs in Cluster mode (cluster_enabled:1), which this service does not support: ` +
        'its Redis connections are not cluster-aware, so queues and rate limits would fail with MOVED or CROSSSLOT errors. ' +
        'Point REDIS_URL at a standalone Redis (a primary with replicas is fine) or a managed Redis with cluster mode disabled.',
    });
  }

  const maxmemoryPolicy = configValue(answers.config, 'maxmemory-policy') ?? info?.get('maxmemory_policy');
  if (maxmemoryPolicy === undefined) {
    findings.push({
      level: 'info',
      message:
        `Redis maxmemory-policy at ${address} could not be checked (CONFIG GET and INFO memory did not report it): ` +
        'make sure it is noeviction, or Redis may evict queued jobs when it is full.',
    });
  } else if (maxmemoryPolicy !== 'noeviction') {
    findings.push({
      level: 'warn',
      message:
        `Redis maxmemory-policy at ${address} is ${maxmemoryPolicy}, not noeviction: when Redis is full it can evict ` +
        "BullMQ's job keys, and those jobs are lost. Set maxmemory-policy to noeviction " +
        "(CONFIG SET maxmemory-policy noeviction, or the managed service's parameter settings).",
    });
  }

  // BullMQ checks the version of Redis only; Valkey and Dragonfly report a compatible redis_version.
  const redisOnly = info !== undefined && !info.has('valkey_version') && !info.has('dragonfly_version');
  const version = info?.get('redis_version');
  const { minimumVersion, recommendedMinimumVersion } = RedisConnection;
  if (info === undefined) {
    findings.push({
      level: 'warn',
      message:
        `Redis at ${address} refused INFO, so its version and Cluster mode could not be checked; ` +
        'BullMQ reads INFO when it connects, so its queues may not start.',
    });
  } else if (redisOnly && version !== undefined && versionBelow(version, minimumVersion)) {
    findings.push({
      level: 'warn',
      message:
        `Redis at ${address} is version ${version}, older than ${minimumVersion}, the oldest BullMQ supports: ` +
        `its queues will not start. Upgrade Redis to ${recommendedMinimumVersion} or later.`,
    });
  } else if (redisOnly && version !== undefined && versionBelow(version, recommendedMinimumVersion)) {
    findings.push({
      level: 'warn',
      message:
        `Redis at ${address} is version ${version}, older than ${recommendedMinimumVersion}, the oldest BullMQ ` +
        `recommends. Upgrade Redis to ${recommendedMinimumVersion} or later.`,
    });
  }
  return { version, maxmemoryPolicy, cluster, findings };
}
