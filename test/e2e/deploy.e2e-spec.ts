import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// `yaml` (a dev dependency) rather than js-yaml: YAML 1.2, compose's `<<` merge keys on request,
// multi-document files, its own TypeScript types, and no dependencies of its own.
import { parse, parseAllDocuments } from 'yaml';
import { loadConfig, type AppConfig } from '../../libs/config/src/index.js';
import { ALL_QUEUES } from '../../libs/jobs/src/index.js';
import { startApi, type TestApi } from '../support/api.js';
import { Client } from '../support/client.js';
import { freePort, type RunningProcess } from '../support/process.js';
import { openQueue, REDIS_URL } from '../support/queues.js';
import { startWorker, stopWorker } from '../support/worker.js';

/**
 * docker-compose.yml, deploy/compose/Caddyfile and deploy/k8s/*.yaml checked against the app they
 * deploy: variable names, probe paths and ports, the migration entry point, the proxy's upstream
 * and the Redis keys KEDA watches. A change on either side that the other misses fails here.
 */
const COMPOSE_FILE = 'docker-compose.yml';
const K8S_DIR = 'deploy/k8s';
/** Variables of the app that compose deliberately does not pass through, and why. */
const NOT_IN_COMPOSE: Record<string, string> = {
  HOST: 'the image sets 0.0.0.0',
  WEB_ROOT: 'the image holds the built web app at the default path',
  WORKER_NAME: "one per replica: the default, the container's host name and pid, is unique",
  AUDIT_SEED: 'for tests only: a fixed sequence of audit draws (the API warns when it is set in production)',
  OTEL_SERVICE_NAME:
    'each app names itself (ticket-judge-api, ticket-judge-worker); one value passed to both would name them alike',
};

/** The names loadConfig reads: it looks up each variable it knows in the environment it is given. */
function appVariables(): Set<string> {
  const read = new Set<string>();
  const target: NodeJS.ProcessEnv = {};
  const env = new Proxy(target, {
    get: (_target, name) => {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  return read;
}

type Env = Record<string, string>;

/** A compose service's environment as the container gets it: `${VAR:-}` from `shell`, no-value keys dropped. */
function composeEnv(service: any, shell: Env): Env {
  const env: Env = {};
  for (const [name, value] of Object.entries<string | number | boolean | null>(service.environment ?? {})) {
    if (value === null) continue;
    env[name] = String(value).replace(
      /\$\{(\w+)(?::?-([^}]*))?\}/g,
      (_match, variable: string, fallback?: string) => shell[variable] ?? fallback ?? '',
    );
  }
  return env;
}

/** The port and path a compose health check fetches. */
function healthcheckUrl(service: any): URL {
  const command = (service.healthcheck.test as string[]).join(' ');
  const url = /https?:\/\/[^'"\s)]+/.exec(command)?.[0];
  if (!url) throw new Error(`no URL in the health check: ${command}`);
  return new URL(url);
}

interface Manifest {
  file: string;
  doc: any;
}

function loadManifests(): Manifest[] {
  const files = readdirSync(K8S_DIR).filter((name) => name.endsWith('.yaml'));
  return files.flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(K8S_DIR, file), 'utf8')).map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
      return { file, doc: document.toJS() };
    }),
  );
}

function find(manifests: Manifest[], kind: string, name: string, examples = false): any {
  const found = manifests.find(
    (m) =>
      m.doc?.kind === kind &&
      m.doc.metadata?.name === name &&
      (examples || !m.file.endsWith('.example.yaml')),
  );
  if (!found) throw new Error(`no ${kind} ${name} in ${K8S_DIR}`);
  return found.doc;
}

/** A container's environment: its envFrom ConfigMaps and Secrets (the example Secret's values), then env. */
function containerEnv(manifests: Manifest[], container: any): Env {
  const env: Env = {};
  for (const source of container.envFrom ?? []) {
    if (source.configMapRef) Object.assign(env, find(manifests, 'ConfigMap', source.configMapRef.name).data);
    if (source.secretRef)
      Object.assign(env, find(manifests, 'Secret', source.secretRef.name, true).stringData);
  }
  for (const variable of container.env ?? []) {
    if (variable.valueFrom) throw new Error(`${variable.name}: only literal values are checked here`);
    env[variable.name] = String(variable.value);
  }
  return env;
}

/** The container port a probe or Service names, by name or by number. */
function portOf(container: any, port: string | number): number {
  if (typeof port === 'number') return port;
  const named = (container.ports ?? []).find((p: any) => p.name === port);
  if (!named) throw new Error(`container ${container.name} has no port named ${port}`);
  return named.containerPort as number;
}

const PROBES = ['startupProbe', 'readinessProbe', 'livenessProbe'] as const;

function probes(container: any): { kind: string; path: string; port: number }[] {
  return PROBES.map((kind) => {
    const probe = container[kind]?.httpGet;
    if (!probe) throw new Error(`container ${container.name} has no HTTP ${kind}`);
    return { kind, path: probe.path as string, port: portOf(container, probe.port) };
  });
}

const onlyContainer = (workload: any) => {
  const containers = workload.spec.template.spec.containers;
  expect(containers).toHaveLength(1);
  return containers[0];
};

const known = appVariables();
const compose = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true });
const manifests = loadManifests();
const apiDeployment = find(manifests, 'Deployment', 'ticket-judge-api');
const workerDeployment = find(manifests, 'Deployment', 'ticket-judge-worker');
const migrateJob = find(manifests, 'Job', 'ticket-judge-migrate');
const apiContainer = onlyContainer(apiDeployment);
const workerContainer = onlyContainer(workerDeployment);

/** A prefix of this file's own, so nothing it writes to Redis meets another suite's queues. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-deploy`;

async function dropKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

describe('reading the variable names', () => {
  it('finds every variable of the app, optional ones included', () => {
    for (const name of ['DATABASE_URL', 'REDIS_PREFIX', 'WORKER_HEALTH_PORT', 'METRICS_TOKEN', 'PUBLIC_URL'])
      expect(known).toContain(name);
  });
});

describe('docker-compose.yml', () => {
  const services = compose.services;
  const appServices = ['migrate', 'api', 'worker'];
  const shell = { SESSION_SECRET: 's'.repeat(40) };
  const configOf = (name: string): AppConfig => loadConfig(composeEnv(services[name], shell));

  it('runs every app service on the image, with only variables the app reads', () => {
    const appImage = services.api.image;
    expect(
      Object.keys(services)
        .filter((name) => services[name].image === appImage)
        .sort(),
    ).toEqual([...appServices].sort());
    for (const name of appServices) {
      const unknown = Object.keys(services[name].environment ?? {}).filter((v) => !known.has(v));
      expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
    }
  });

  it('passes every variable of the app through, or says why not', () => {
    const passed = new Set(appServices.flatMap((name) => Object.keys(services[name].environment ?? {})));
    const missing = [...known].filter((name) => !passed.has(name) && !(name in NOT_IN_COMPOSE));
    expect(missing).toEqual([]);
  });

  it('gives each app service a configuration the app accepts', () => {
    for (const name of appServices) expect(() => configOf(name)).not.toThrow();
    expect(configOf('api').nodeEnv).toBe('production');
  });

  it('migrates once, in the migrate service, before any api or worker starts', () => {
    const command: string[] = services.migrate.command;
    expect(command[0]).toBe('node');
    expect(existsSync(command[1])).toBe(true);
    expect(command[1]).toBe('dist/apps/api/src/cli/migrate.js');
    expect(services.migrate.restart).toBe('no');
    expect(configOf('api').migrateOnStart).toBe(false);
    for (const name of ['api', 'worker'])
      expect(services[name].depends_on.migrate).toEqual({ condition: 'service_completed_successfully' });
  });

  it('publishes no api or worker port; the proxy, on 3000, sends to every api replica on its PORT', () => {
    expect(services.api.ports).toBeUndefined();
    expect(services.worker.ports).toBeUndefined();
    const apiPort = configOf('api').port;
    expect(services.api.expose.map(String)).toEqual([String(apiPort)]);
    expect(healthcheckUrl(services.api).port).toBe(String(apiPort));

    expect(services.proxy.ports).toEqual(['127.0.0.1:3000:3000']);
    const mount = (services.proxy.volumes as string[]).find((v) => v.endsWith(':/etc/caddy/Caddyfile:ro'));
    expect(mount).toBeDefined();
    const caddyfile = readFileSync(mount!.split(':')[0], 'utf8');
    expect(/^:(\d+) \{/m.exec(caddyfile)?.[1]).toBe('3000');
    const upstream = /dynamic a \{([^}]*)\}/.exec(caddyfile)?.[1] ?? '';
    expect(/\bname\s+(\S+)/.exec(upstream)?.[1]).toBe('api');
    expect(Number(/\bport\s+(\d+)/.exec(upstream)?.[1])).toBe(apiPort);
  });

  it("checks each worker's health on its WORKER_HEALTH_PORT", () => {
    const url = healthcheckUrl(services.worker);
    expect(Number(url.port)).toBe(configOf('worker').workerHealthPort);
    expect(url.pathname).toBe('/readyz');
  });

  it('keeps postgres and redis on loopback, and redis without eviction and with persistence', () => {
    expect(services.postgres.ports).toEqual(['127.0.0.1:5432:5432']);
    expect(services.redis.ports).toEqual(['127.0.0.1:6379:6379']);
    const redis = (services.redis.command as string[]).join(' ');
    expect(redis).toContain('--maxmemory-policy noeviction');
    expect(redis).toContain('--appendonly yes');
    expect(services.redis.volumes).toEqual(['redis-data:/data']);
  });
});

describe('deploy/k8s', () => {
  const containers = { api: apiContainer, worker: workerContainer, migrate: onlyContainer(migrateJob) };
  const configOf = (container: any): AppConfig => loadConfig(containerEnv(manifests, container));

  it('lists every manifest but the examples in kustomization.yaml', () => {
    const kustomization = parse(readFileSync(path.join(K8S_DIR, 'kustomization.yaml'), 'utf8'));
    const files = new Set(manifests.map((m) => m.file));
    files.delete('kustomization.yaml');
    const expected = [...files].filter((file) => !file.endsWith('.example.yaml')).sort();
    expect([...kustomization.resources].sort()).toEqual(expected);
  });

  it('sets only variables the app reads, and the app accepts each container’s configuration', () => {
    for (const [name, container] of Object.entries(containers)) {
      const unknown = Object.keys(containerEnv(manifests, container)).filter((v) => !known.has(v));
      expect({ container: name, unknown }).toEqual({ container: name, unknown: [] });
      expect(() => configOf(container)).not.toThrow();
      expect(configOf(container).host).toBe('0.0.0.0');
    }
  });

  it('migrates in the Job, with the built CLI, and never from the api', () => {
    expect(containers.migrate.command).toEqual(['node', 'dist/apps/api/src/cli/migrate.js']);
    expect(existsSync(containers.migrate.command[1])).toBe(true);
    expect(migrateJob.spec.template.spec.restartPolicy).toBe('Never');
    // `kubectl apply -k deploy/k8s -l ticket-judge/step=migrate` (docs/deploy.md) must bring the
    // ConfigMaps the Job reads along with it.
    const step = (doc: any) => doc.metadata.labels?.['ticket-judge/step'];
    expect(step(migrateJob)).toBe('migrate');
    for (const source of containers.migrate.envFrom.filter((s: any) => s.configMapRef))
      expect(step(find(manifests, 'ConfigMap', source.configMapRef.name))).toBe('migrate');
    expect(configOf(apiContainer).migrateOnStart).toBe(false);
  });

  it('probes, serves and scrapes the api on its PORT, and the worker on its WORKER_HEALTH_PORT', () => {
    const apiPort = configOf(apiContainer).port;
    for (const probe of probes(apiContainer)) expect(probe.port).toBe(apiPort);
    const service = find(manifests, 'Service', 'ticket-judge-api');
    expect(portOf(apiContainer, service.spec.ports[0].targetPort)).toBe(apiPort);
    expect(service.spec.selector).toEqual(apiDeployment.spec.template.metadata.labels);
    expect(Number(apiDeployment.spec.template.metadata.annotations['prometheus.io/port'])).toBe(apiPort);

    const healthPort = configOf(workerContainer).workerHealthPort;
    expect(healthPort).toBeDefined();
    for (const probe of probes(workerContainer)) expect(probe.port).toBe(healthPort);
    expect(Number(workerDeployment.spec.template.metadata.annotations['prometheus.io/port'])).toBe(
      healthPort,
    );
  });

  it('scales the api on CPU from 2 replicas, and keeps both kinds of pod through drains', () => {
    const hpa = find(manifests, 'HorizontalPodAutoscaler', 'ticket-judge-api');
    expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: apiDeployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.metrics[0].resource.name).toBe('cpu');
    for (const deployment of [apiDeployment, workerDeployment]) {
      const pdb = find(manifests, 'PodDisruptionBudget', deployment.metadata.name);
      expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    }
  });

  it('starts the api with the V8 flags of package.json, as the Dockerfile and docker-compose.yml do', () => {
    const flags = (command: string[]) => command.filter((arg) => arg.startsWith('--'));
    const scripts = JSON.parse(readFileSync('package.json', 'utf8')).scripts as Record<string, string>;
    const expected = flags(scripts['start:api'].split(' '));
    expect(expected).toContain('--max-semi-space-size=32');
    expect(expected.some((flag) => flag.startsWith('--max-old-space-size='))).toBe(true);
    const cmd = /^CMD (\[.*\])$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1] ?? '[]';
    expect(flags(JSON.parse(cmd))).toEqual(expected);
    expect(flags(compose.services.api.command)).toEqual(expected);
    expect(flags(apiContainer.command)).toEqual(expected);
  });

  it("limits the api's memory above the whole heap V8 may take, with room for the rest", () => {
    const mb = (flag: string) =>
      Number(apiContainer.command.find((arg: string) => arg.startsWith(`--${flag}=`)).split('=')[1]);
    // V8's heap limit is the old generation plus three semi-spaces (bench:memory read 480 MB at 384 and 32).
    const heapMb = mb('max-old-space-size') + 3 * mb('max-semi-space-size');
    const mi = (quantity: string) => {
      const [, amount, unit] = /^(\d+)(Mi|Gi)$/.exec(quantity)!;
      return Number(amount) * (unit === 'Gi' ? 1024 : 1);
    };
    const { requests, limits } = apiContainer.resources;
    // Code, native libraries and buffers came to about 80 MiB beside the heap in bench:memory.
    expect(mi(limits.memory)).toBeGreaterThanOrEqual(heapMb + 128);
    expect(mi(requests.memory)).toBeLessThanOrEqual(mi(limits.memory));
  });

  describe('KEDA', () => {
    const scaled = find(manifests, 'ScaledObject', 'ticket-judge-worker');
    const prefix = configOf(workerContainer).redisPrefix;
    const waitList = (redisPrefix: string, queue: string) => `${redisPrefix}:${queue}:wait`;

    afterAll(() => dropKeys(PREFIX));

    it("watches the wait list of every queue, under the configuration's REDIS_PREFIX", () => {
      expect(scaled.spec.scaleTargetRef.name).toBe(workerDeployment.metadata.name);
      expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      const lists = scaled.spec.triggers.map((trigger: any) => {
        expect(trigger.type).toBe('redis');
        find(manifests, 'TriggerAuthentication', trigger.authenticationRef.name);
        return trigger.metadata.listName;
      });
      expect(lists.sort()).toEqual(ALL_QUEUES.map((queue) => waitList(prefix, queue)).sort());
      const auth = find(manifests, 'TriggerAuthentication', 'ticket-judge-keda-redis');
      for (const ref of auth.spec.secretTargetRef)
        expect(find(manifests, 'Secret', ref.name, true).stringData).toHaveProperty(ref.key);
    });

    it('names the list where BullMQ puts a waiting job', async () => {
      const redis = new Redis(REDIS_URL);
      try {
        for (const name of ALL_QUEUES) {
          const queue = openQueue(name, PREFIX);
          try {
            await queue.add('probe', {});
            expect(await redis.llen(waitList(PREFIX, name))).toBe(1);
          } finally {
            await queue.close();
          }
        }
      } finally {
        await redis.quit();
      }
    });
  });

  describe('against the running apps', () => {
    const metricsToken = configOf(apiContainer).metricsToken!;
    const bearer = { headers: { authorization: `Bearer ${metricsToken}` } };
    const workerPrefix = `${PREFIX}-worker`;
    let api: TestApi;
    let worker: RunningProcess | undefined;
    let workerUrl: string;

    beforeAll(async () => {
      const port = await freePort();
      workerUrl = `http://127.0.0.1:${port}`;
      [api, worker] = await Promise.all([
        startApi({ METRICS_TOKEN: metricsToken }),
        // Its own queues (and, as every test worker, no sweep): it must not take other suites' work.
        startWorker({
          WORKER_HEALTH_PORT: String(port),
          METRICS_TOKEN: metricsToken,
          REDIS_PREFIX: workerPrefix,
        }),
      ]);
    });
    afterAll(async () => {
      await api?.close();
      if (worker) await stopWorker(worker);
      await dropKeys(workerPrefix);
    });

    it('answers 200 on every api probe path and on its scrape path', async () => {
      const client = new Client(api.url);
      for (const probe of probes(apiContainer))
        expect([probe.kind, (await client.get(probe.path)).status]).toEqual([probe.kind, 200]);
      const scrape = apiDeployment.spec.template.metadata.annotations['prometheus.io/path'];
      expect((await client.get(scrape)).status).toBe(401);
      expect((await client.get(scrape, bearer)).status).toBe(200);
    });

    it('answers 200 on every worker probe path and on its scrape path', async () => {
      const client = new Client(workerUrl);
      for (const probe of probes(workerContainer))
        expect([probe.kind, (await client.get(probe.path)).status]).toEqual([probe.kind, 200]);
      const scrape = workerDeployment.spec.template.metadata.annotations['prometheus.io/path'];
      expect((await client.get(scrape, bearer)).status).toBe(200);
    });

    it('exports the queue_jobs series the Prometheus alternative to the Redis triggers sums', async () => {
      const alternative = manifests.find(
        (m) => m.file.endsWith('.example.yaml') && m.doc?.kind === 'ScaledObject',
      )!.doc;
      expect(alternative.spec.scaleTargetRef.name).toBe(workerDeployment.metadata.name);
      const [trigger] = alternative.spec.triggers;
      expect(trigger.type).toBe('prometheus');
      const query: string = trigger.metadata.query;
      const selector = /queue_jobs\{queue=~"([^"]+)", state="(\w+)"\}/.exec(query);
      expect(selector).not.toBeNull();
      const [, queues, state] = selector!;
      expect(queues.split('|').sort()).toEqual([...ALL_QUEUES].sort());
      const metrics = (await new Client(api.url).get('/metrics', bearer)).text;
      for (const queue of ALL_QUEUES)
        expect(metrics).toMatch(new RegExp(`^queue_jobs\\{queue="${queue}",state="${state}"\\} \\d+$`, 'm'));
    });
  });
});
