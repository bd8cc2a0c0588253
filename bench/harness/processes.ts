import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { FastifyInstance } from 'fastify';
import { log } from './log.js';

/**
 * The V8 flags the API and worker run with in production (package.json's start scripts,
 * scripts/start.mjs, the Dockerfile). Every process a benchmark starts gets them, the bare
 * yardstick routes included, so the comparison stays fair.
 */
export const PRODUCTION_NODE_FLAGS = ['--max-semi-space-size=64'];

/**
 * The API's own, after those (V8 takes the last of a repeated flag): a 32 MB young generation and a
 * bounded old one (docs/architecture.md, "Runtime flags").
 */
export const API_NODE_FLAGS = ['--max-semi-space-size=32', '--max-old-space-size=384'];

/** Lines kept per process: the apps log a handful at `info`, so this only bounds a runaway. */
const MAX_LINES = 5_000;

interface ReadyMessage {
  type: 'ready';
  url: string;
}
interface AnswerMessage {
  type: 'answer';
  value: unknown;
}

const isMessage = <T extends { type: string }>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as T).type === type;

/** pino's numeric level of a JSON log line (40 warn, 50 error); 0 for anything else. */
function levelOf(raw: string): number {
  try {
    return (JSON.parse(raw) as { level?: number }).level ?? 0;
  } catch {
    return 0;
  }
}

export interface LaunchOptions {
  env: NodeJS.ProcessEnv;
  /** More Node flags, for example `--cpu-prof`. */
  execArgv?: string[];
  /**
   * How it says it is ready: `ipc` for the harness's own servers (`serveUntilStopped`, which report
   * their URL), or a line of its output (the worker app's `worker ready`).
   */
  ready: 'ipc' | RegExp;
  timeoutMs?: number;
  /** Passes its output through to the benchmark's stderr as it comes (a log level asked for). */
  echo?: boolean;
}

/**
 * A process the benchmark runs beside itself, so it does not share an event loop with the load
 * generator: a server of the harness, or the real worker app. Its own process group, so Ctrl-C
 * reaches only the benchmark, which then stops it in order. Its output is kept for the report.
 */
export class Service {
  readonly lines: string[] = [];
  /** Its log lines at warn or above. */
  readonly warnings: string[] = [];
  /** Set when it exits without being asked to; the benchmark then stops. */
  died = false;
  url = '';
  private stopping = false;
  private readonly closed: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    private readonly ipc: boolean,
  ) {
    // `close` rather than `exit`: by then every line of its output has been read.
    this.closed = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', (code, signal) => {
      if (this.stopping) return;
      this.died = true;
      log(`${name} exited unexpectedly (code ${code}, signal ${signal})`);
      for (const line of this.lines.slice(-20)) log(`${name}: ${line}`);
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  static start(name: string, script: string, options: LaunchOptions): Promise<Service> {
    const ipc = options.ready === 'ipc';
    const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, ...(options.execArgv ?? []), script], {
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc' as const] : [])],
      detached: true,
    });
    const service = new Service(name, child, ipc);
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} was not ready within ${timeoutMs} ms`));
      }, timeoutMs);
      const onClose = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with code ${code} before it was ready`));
      };
      const ready = (url = '') => {
        clearTimeout(timer);
        child.off('close', onClose);
        service.url = url;
        resolve(service);
      };
      child.once('close', onClose);
      if (ipc)
        child.on('message', (message) => isMessage<ReadyMessage>(message, 'ready') && ready(message.url));
      for (const stream of [child.stdout!, child.stderr!]) {
        createInterface({ input: stream }).on('line', (raw) => {
          if (service.lines.length < MAX_LINES) service.lines.push(raw);
          if (options.echo) log(`${name}: ${raw}`);
          if (levelOf(raw) >= 40) service.warnings.push(raw);
          if (!ipc && (options.ready as RegExp).test(raw)) ready();
        });
      }
    });
  }

  /** Asks one of the harness's servers for something it keeps (the fake gateway's last request). */
  ask(topic: string): Promise<unknown> {
    return new Promise((resolve) => {
      const onMessage = (message: unknown) => {
        if (!isMessage<AnswerMessage>(message, 'answer')) return;
        this.child.off('message', onMessage);
        resolve(message.value);
      };
      this.child.on('message', onMessage);
      this.child.send({ type: 'ask', topic });
    });
  }

  /** A harness server closes on `stop`; the worker app on SIGTERM, as an orchestrator would stop it. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.ipc && this.child.connected) this.child.send('stop');
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.closed;
    clearTimeout(timer);
  }
}

/**
 * The child side of a harness server: reports its URL, answers `ask`s from `answers`, then closes
 * and exits on `stop` or when the benchmark is gone.
 */
export function serveUntilStopped(
  url: string,
  close: () => Promise<void>,
  answers: Record<string, () => unknown> = {},
): void {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        log(`close failed: ${String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('message', (message) => {
    if (message === 'stop') shutdown();
    if (isMessage<{ type: 'ask'; topic: string }>(message, 'ask'))
      process.send?.({ type: 'answer', value: answers[message.topic]?.() ?? null } satisfies AnswerMessage);
  });
  process.on('disconnect', shutdown);
  process.send?.({ type: 'ready', url } satisfies ReadyMessage);
}

/** The child side of a bare yardstick route: listens on a free port of 127.0.0.1, then serves until stopped. */
export async function serveFastify(app: FastifyInstance, close: () => Promise<void>): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the bare server has no TCP address');
  serveUntilStopped(`http://127.0.0.1:${address.port}`, async () => {
    await app.close();
    await close();
  });
}
