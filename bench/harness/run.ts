import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { newTenant, PASSWORD, type Client } from '../../test/support/client.js';
import { TEST_SIGN_UP_LIMIT } from '../../test/support/sign-up-limit.js';
import { createPublishedPack } from '../../test/support/packs.js';
import { log } from './log.js';
import type { CommonOptions } from './options.js';
import { describeMachine, Probe, type Machine } from './probes.js';
import { API_NODE_FLAGS, Service } from './processes.js';
import { ROOT } from './report.js';
import * as stores from './stores.js';

const SESSION_SECRET = 'bench-session-secret-0123456789abcdef0123456789';

/** A user with a key holding every permission and a published three-question pack, set up over HTTP. */
export interface Tenant {
  client: Client;
  userId: string;
  apiKey: string;
  packId: string;
  email: string;
  password: string;
}

export async function createTenant(apiUrl: string): Promise<Tenant> {
  const { keyed, key, user } = await newTenant(apiUrl);
  const pack = (await createPublishedPack(keyed)) as { id: string };
  return {
    client: keyed,
    userId: user.id,
    apiKey: key.secret,
    packId: pack.id,
    email: user.email,
    password: PASSWORD,
  };
}

/**
 * One benchmark run's world: a scratch database and Redis prefix, the processes it started, and the
 * clean-up that removes them all, in reverse order, even after a failure or Ctrl-C.
 */
export class BenchRun {
  readonly databaseName: string;
  readonly redisPrefix: string;
  /** The scratch database. */
  databaseUrl = '';
  /** The dist/ the processes run: a private copy when asked for, so others' rebuilds leave it alone. */
  dist = path.join(ROOT, 'dist');
  machine!: Machine;
  /** The fake gateway's URL once started: the API and every worker are pointed at it. */
  private gatewayUrl?: string;
  private readonly undo: Array<() => unknown> = [];
  private closing?: Promise<void>;

  private constructor(
    readonly name: string,
    readonly options: CommonOptions,
  ) {
    const stamp = Date.now();
    this.databaseName = `ticket_judge_bench_${name}_${stamp}`;
    this.redisPrefix = `tjbench-${name}-${stamp}`;
  }

  /** Runs `body` in a fresh run, then cleans up whatever happened. */
  static async with(
    name: string,
    options: CommonOptions,
    { snapshot = false }: { snapshot?: boolean },
    body: (run: BenchRun) => Promise<void>,
  ): Promise<void> {
    const run = new BenchRun(name, options);
    // `on`, not `once`: a second signal while cleaning up must not kill the process half-way.
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.on(signal, () => {
        log(`${signal}: stopping`);
        void run.close().finally(() => process.exit(130));
      });
    try {
      await run.open(snapshot);
      await body(run);
    } finally {
      await run.close();
    }
  }

  private async open(snapshot: boolean): Promise<void> {
    const { databaseUrl, redisUrl } = this.options;
    this.onClose(() => stores.deleteRedisNamespace(redisUrl, this.redisPrefix));
    await stores.ensureServices(ROOT, databaseUrl, redisUrl);
    if (snapshot) {
      const copy = await stores.snapshotDist(ROOT);
      this.onClose(() => copy.remove());
      this.dist = copy.dist;
    }
    this.databaseUrl = await stores.createScratchDatabase(databaseUrl, this.databaseName);
    if (this.options.keepDatabase) this.onClose(() => log(`kept database ${this.databaseName}`));
    else this.onClose(() => stores.dropScratchDatabase(databaseUrl, this.databaseName));
    this.machine = describeMachine(await stores.postgresVersion(databaseUrl));
  }

  /** A step of the clean-up; they run last first. */
  onClose(step: () => unknown): void {
    this.undo.push(step);
  }

  close(): Promise<void> {
    return (this.closing ??= (async () => {
      for (const step of this.undo.reverse())
        await Promise.resolve()
          .then(step)
          .catch((error: unknown) => log(`clean-up step failed: ${String(error)}`));
      const database = this.options.keepDatabase ? 'kept' : 'dropped';
      log(`cleaned up: processes stopped, database ${this.databaseName} ${database}, Redis keys deleted`);
    })());
  }

  /** The scratch database's URL, its connections named (to tell a process's backends apart). */
  database(applicationName = 'tj-bench'): string {
    return stores.withApplicationName(this.databaseUrl, applicationName);
  }

  async postgres(url = this.database()): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    this.onClose(() => client.end());
    return client;
  }

  async redis(): Promise<Redis> {
    const redis = new Redis(this.options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    this.onClose(() => redis.disconnect());
    return redis;
  }

  /** CPU and Postgres activity, read from the maintenance database. */
  async probe(): Promise<Probe> {
    const stats = await this.postgres(stores.maintenanceUrl(this.options.databaseUrl));
    return new Probe(stats, await this.redis(), this.databaseName);
  }

  /** What the API and the worker are configured with; `appName` names their Postgres connections. */
  appEnv(appName: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return {
      ...process.env,
      NODE_ENV: 'test',
      SESSION_SECRET,
      DATABASE_URL: this.database(appName),
      REDIS_URL: this.options.redisUrl,
      REDIS_PREFIX: this.redisPrefix,
      MIGRATE_ON_START: 'true',
      // Scenarios sign their tenants up from one address.
      SIGN_UP_LIMIT_PER_HOUR: TEST_SIGN_UP_LIMIT,
      // Without it the apps would judge with their local stand-in, which answers at once.
      ...(this.gatewayUrl ? { MODEL_GATEWAY_URL: this.gatewayUrl } : {}),
      ...extra,
    };
  }

  /** A process of the harness or a scenario (`harness/serve-api.js`, `judge.bare.js`), ready over IPC. */
  async serve(
    name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    execArgv: string[] = [],
  ): Promise<Service> {
    const service = await Service.start(name, path.join(this.dist, 'bench', script), {
      env,
      execArgv,
      ready: 'ipc',
      echo: this.options.logLevel !== 'silent',
    });
    this.onClose(() => service.stop());
    return service;
  }

  /** test/support's fake model gateway, answering after `delayMs`; the apps started after it use it. */
  async gateway(delayMs: number): Promise<Service> {
    const gateway = await this.serve('fake gateway', 'harness/serve-gateway.js', {
      ...process.env,
      BENCH_GATEWAY_DELAY_MS: String(delayMs),
    });
    this.gatewayUrl = gateway.url;
    return gateway;
  }

  receiver(): Promise<Service> {
    return this.serve('receiver', 'harness/serve-receiver.js', process.env);
  }

  /**
   * The real API app with its production flags (`apiFlags`: bench:memory replaces them); the
   * per-key daily limit is set so high it never answers 429, yet still runs.
   */
  api(env: NodeJS.ProcessEnv = {}, execArgv: string[] = [], apiFlags = API_NODE_FLAGS): Promise<Service> {
    const appEnv = this.appEnv('tj-api', {
      LOG_LEVEL: this.options.logLevel,
      API_RATE_LIMIT_PER_DAY: '100000000',
      ...env,
    });
    return this.serve('API', 'harness/serve-api.js', appEnv, [...apiFlags, ...execArgv]);
  }

  /**
   * `count` processes of the real worker app, ready once each has logged `worker ready`; stopped
   * with SIGTERM by `stopWorkers` (in-flight jobs finish), or at the clean-up.
   */
  async workers(count: number, env: NodeJS.ProcessEnv, execArgv: string[] = []): Promise<Service[]> {
    const script = path.join(this.dist, 'apps/worker/src/main.js');
    // `worker ready` is logged at info; nothing else is logged per job at that level.
    const workerEnv = this.appEnv('tj-worker', { LOG_LEVEL: 'info', ...env });
    const started = await Promise.allSettled(
      Array.from({ length: count }, (_, i) =>
        Service.start(`worker ${i + 1}/${count}`, script, {
          env: workerEnv,
          execArgv,
          ready: /worker ready/,
        }),
      ),
    );
    const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    for (const worker of workers) this.onClose(() => worker.stop());
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return workers;
  }
}

/** Stops workers, prints what they logged at warn or above, and says how many lines that was. */
export async function stopWorkers(workers: Service[]): Promise<number> {
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  for (const worker of workers) for (const line of worker.warnings) log(`${worker.name}: ${line}`);
  return workers.reduce((sum, worker) => sum + worker.warnings.length, 0);
}
