import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, lstatSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { parse } from 'yaml';
import { Client } from '../support/client.js';
import { DockerIgnore, parseDockerfile, replayDockerfile, type Replay } from '../support/dockerfile.js';
import { freePort, runCommand, type RunningProcess } from '../support/process.js';
import { REDIS_URL } from '../support/queues.js';

/**
 * The image without Docker (none runs here): the Dockerfile's stages replayed in a clean folder,
 * step by step (test/support/dockerfile.ts), then the API started with the image's CMD and
 * environment, and the worker and the migrations with docker-compose.yml's commands, from the
 * runtime stage's tree. A package the apps need at run time that is only a devDependency, a file
 * the build needs that .dockerignore leaves out, or a file the runtime stage forgets to copy fails
 * here as it would fail the image.
 *
 * One shortcut, unless DOCKERFILE_REPLAY=full: the build stage's `npm ci` (about two minutes)
 * becomes a link to this checkout's node_modules, installed from the same lock file by `npm test`.
 * Every other step runs as written, the build stage's `npm run build` and the `npm ci --omit=dev`
 * the runtime copies included; npm takes packages from its cache when it has them (prefer-offline).
 */
const CONTEXT = process.cwd();
const FULL = process.env.DOCKERFILE_REPLAY === 'full';
const DATABASE = `${process.env.TEST_DATABASE_NAME}_docker`;
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-docker`;

const stages = parseDockerfile(readFileSync('Dockerfile', 'utf8'));
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; devOptional?: boolean }>;
};

function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The build stage's `npm ci`, done by linking the checkout's node_modules (see above), once they
 * are known to hold the lock file's versions: npm's record of the install must list each of them.
 */
function linkCheckoutModules(workdir: string) {
  const modules = path.join(CONTEXT, 'node_modules');
  const installed = JSON.parse(readFileSync(path.join(modules, '.package-lock.json'), 'utf8')) as typeof lock;
  const differ = Object.entries(lock.packages).filter(
    ([name, entry]) =>
      name.startsWith('node_modules/') &&
      !entry.optional &&
      installed.packages[name]?.version !== entry.version,
  );
  if (differ.length > 0)
    throw new Error(
      `node_modules does not match package-lock.json (${differ[0][0]} first): run \`node scripts/ensure-deps.mjs\``,
    );
  symlinkSync(modules, path.join(workdir, 'node_modules'), 'dir');
}

describe('the Dockerfile, read', () => {
  const final = stages.at(-1)!;
  const last = (keyword: string) => final.instructions.filter((i) => i.keyword === keyword).at(-1);

  it('runs as a non-root user, with an exec-form CMD, on base images of a pinned tag', () => {
    // What hadolint's DL3002, DL3025, DL3006 and DL3007 check (hadolint cannot be installed here).
    expect(last('USER')?.args).toBe('node');
    expect(last('CMD')?.args).toMatch(/^\[.*\]$/);
    for (const stage of stages) expect(stage.image).toMatch(/^[\w./-]+:(?!latest$)[\w.-]+$/);
  });

  it('reads .dockerignore as Docker does', () => {
    const ignore = new DockerIgnore('# comment\nnode_modules\n*.log\n**/*.tmp\ndocs\n!docs/keep.md\n');
    expect(ignore.ignores('node_modules')).toBe(true);
    expect(ignore.ignores('node_modules/a/index.js')).toBe(true);
    expect(ignore.ignores('apps/node_modules')).toBe(false);
    expect(ignore.ignores('npm-debug.log')).toBe(true);
    expect(ignore.ignores('logs/app.log')).toBe(false);
    expect(ignore.ignores('a/b/c.tmp')).toBe(true);
    expect(ignore.ignores('docs/deploy.md')).toBe(true);
    expect(ignore.ignores('docs/keep.md')).toBe(false);
    expect(ignore.mayReinclude('docs')).toBe(true);
  });

  it('leaves host builds, local secrets and history out of the build context', () => {
    const ignore = new DockerIgnore(readFileSync('.dockerignore', 'utf8'));
    for (const file of [
      'node_modules/pg/package.json',
      'dist/apps/api/src/main.js',
      '.git',
      '.env',
      '.env.local',
    ])
      expect([file, ignore.ignores(file)]).toEqual([file, true]);
    for (const file of ['package.json', 'package-lock.json', 'apps/api/src/main.ts', 'apps/web/index.html'])
      expect([file, ignore.ignores(file)]).toEqual([file, false]);
  });
});

describe('the Dockerfile, replayed in a clean folder', () => {
  let folder: string;
  let replay: Replay;
  let migrate: { code: number | null; output: string };
  let api: RunningProcess | undefined;
  let worker: RunningProcess | undefined;
  let apiUrl: string;
  let workerUrl: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'tj-dockerfile-'));
    replay = await replayDockerfile({
      context: CONTEXT,
      into: folder,
      // The machine's npm cache instead of the registry where it can; the packages are the same.
      runEnv: { npm_config_prefer_offline: 'true' },
      substitute: (stage, command, workdir) =>
        !FULL && stage === stages[0].name && command === 'npm ci'
          ? {
              note: 'linked to the checkout’s node_modules (DOCKERFILE_REPLAY=full runs it)',
              run: () => linkCheckoutModules(workdir),
            }
          : undefined,
    });
    console.log(
      `Dockerfile replayed in ${folder}:\n${replay.steps
        .map(
          (s) =>
            `  ${s.stage}:${s.line} ${s.instruction} (${(s.ms / 1000).toFixed(1)} s)${s.note ? `: ${s.note}` : ''}`,
        )
        .join('\n')}`,
    );

    // The image's environment: its ENV lines, and what docker-compose.yml adds for each service.
    const { workdir, env, cmd } = replay.final;
    const imageEnv = {
      PATH: process.env.PATH!,
      ...env,
      DATABASE_URL: databaseUrl(DATABASE),
      REDIS_URL,
      REDIS_PREFIX: PREFIX,
      SESSION_SECRET: 's'.repeat(40),
    };
    await admin(`CREATE DATABASE "${DATABASE}"`);
    const migrating = runCommand(compose.services.migrate.command, { cwd: workdir, env: imageEnv });
    migrate = { code: (await migrating.exited()).code, output: migrating.output() };

    const [apiPort, healthPort] = [await freePort(), await freePort()];
    apiUrl = `http://127.0.0.1:${apiPort}`;
    workerUrl = `http://127.0.0.1:${healthPort}`;
    api = runCommand(cmd!, {
      cwd: workdir,
      env: { ...imageEnv, PORT: String(apiPort), MIGRATE_ON_START: 'false' },
    });
    worker = runCommand(compose.services.worker.command, {
      cwd: workdir,
      env: { ...imageEnv, WORKER_HEALTH_PORT: String(healthPort) },
    });
    await Promise.all([api.waitFor(/API listening on/), worker.waitFor(/worker ready/)]);
  }, 15 * 60_000);

  afterAll(async () => {
    for (const child of [api, worker]) {
      if (!child || child.child.exitCode !== null || child.child.signalCode !== null) continue;
      child.child.kill('SIGTERM');
      await child.exited();
    }
    await admin(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
    if (folder) rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('gives the runtime the production packages of the lock file, installed by npm ci, and no dev one', () => {
    const modules = path.join(replay.final.workdir, 'node_modules');
    // A real install, not the build stage's tree (nor the shortcut's link to the checkout's).
    expect(lstatSync(modules).isDirectory()).toBe(true);
    const entries = Object.entries(lock.packages).filter(([name]) => name.startsWith('node_modules/'));
    const present = (name: string) => existsSync(path.join(replay.final.workdir, name, 'package.json'));
    const dev = entries.filter(([, entry]) => entry.dev).map(([name]) => name);
    const production = entries
      .filter(([, entry]) => !entry.dev && !entry.optional && !entry.devOptional)
      .map(([name]) => name);
    expect(dev).toContain('node_modules/jest');
    expect(dev.filter(present)).toEqual([]);
    expect(production.filter((name) => !present(name))).toEqual([]);
    // npm ci --omit=dev writes its record of the install; npm prune would have kept the dev entries.
    expect(existsSync(path.join(modules, '.package-lock.json'))).toBe(true);
  });

  it('migrates a fresh database with the migrate command of docker-compose.yml', () => {
    expect(migrate).toEqual({ code: 0, output: expect.any(String) });
  });

  it("serves the probes, the OpenAPI document, Swagger UI and the web app from the image's CMD", async () => {
    const client = new Client(apiUrl);
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get('/readyz')).status).toBe(200);
    const openapi = await client.get('/docs/openapi.json');
    expect(openapi.status).toBe(200);
    expect(openapi.body.paths).toHaveProperty(['/api/judge']);
    const docs = await client.get('/docs', { headers: { accept: 'text/html' } });
    expect([docs.status, docs.headers.get('content-type')]).toEqual([
      200,
      expect.stringContaining('text/html'),
    ]);
    // dist/web made it into the image: its icon, and no warning that the app is missing.
    const icon = await client.get('/favicon.ico');
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(api!.output()).not.toContain('no web app at');
  });

  it("starts the worker with docker-compose.yml's command, and it answers its probes", async () => {
    const client = new Client(workerUrl);
    expect((await client.get('/healthz')).status).toBe(200);
    expect((await client.get('/readyz')).status).toBe(200);
  });
});
