import { fork, type ChildProcess } from 'node:child_process';
import { PRODUCTION_NODE_FLAGS } from './node-flags.js';

interface ReadyMessage {
  type: 'ready';
  url: string;
}

function isReady(message: unknown): message is ReadyMessage {
  return typeof message === 'object' && message !== null && (message as ReadyMessage).type === 'ready';
}

export interface ChildOptions {
  env?: NodeJS.ProcessEnv;
  /** Node flags for the child, for example `--cpu-prof`. */
  execArgv?: string[];
  startTimeoutMs?: number;
}

/**
 * A server the benchmark runs in its own process, so it does not share an event loop with the load
 * generator. It reports its URL over IPC once listening, and stops cleanly when asked (which lets
 * `--cpu-prof` write its profile) or when the benchmark process goes away.
 */
export class BenchChild {
  private stopping = false;
  /** Set when the child exits without being asked to; the benchmark then stops. */
  died = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly url: string,
  ) {
    child.once('exit', (code, signal) => {
      if (!this.stopping) {
        process.stderr.write(`[bench] ${name} exited unexpectedly (code ${code}, signal ${signal})\n`);
        this.died = true;
      }
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static start(name: string, script: string, options: ChildOptions = {}): Promise<BenchChild> {
    const child = fork(script, [], {
      env: options.env ?? process.env,
      execArgv: [...PRODUCTION_NODE_FLAGS, ...(options.execArgv ?? [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // Its own process group, so Ctrl-C reaches only the benchmark, which then stops it in order.
      detached: true,
    });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} did not start within ${options.startTimeoutMs ?? 60_000} ms`));
      }, options.startTimeoutMs ?? 60_000);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        reject(new Error(`${name} exited with code ${code} before it was ready`));
      };
      child.once('exit', onExit);
      child.on('message', (message) => {
        if (!isReady(message)) return;
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve(new BenchChild(name, child, message.url));
      });
    });
  }

  /** Asks the child to close and exit; kills it if it has not within the timeout. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    if (this.child.connected) this.child.send('stop');
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}

/** The child side: reports the URL, then closes and exits on `stop` or when the parent is gone. */
export function serveUntilStopped(url: string, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`[bench] close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('message', (message) => {
    if (message === 'stop') shutdown();
  });
  process.on('disconnect', shutdown);
  process.send?.({ type: 'ready', url } satisfies ReadyMessage);
}
