import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PRODUCTION_NODE_FLAGS } from './node-flags.js';

/** pino's numeric level of a JSON log line; 0 for anything else. */
function levelOf(raw: string): number {
  try {
    return (JSON.parse(raw) as { level?: number }).level ?? 0;
  } catch {
    return 0;
  }
}

/**
 * The real worker app (`dist/apps/worker/src/main.js`) as a plain child process: ready once it
 * logs `worker ready`, stopped with SIGTERM as an orchestrator would. It logs nothing per job at
 * `info`, so its output is only counted (warnings and errors) and its last lines kept for a failure.
 */
export class WorkerApp {
  warnings = 0;
  died = false;
  private readonly tail: string[] = [];
  private stopping = false;
  private readonly closed: Promise<void>;

  private constructor(private readonly child: ChildProcess) {
    this.closed = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', (code, signal) => {
      if (this.stopping) return;
      this.died = true;
      process.stderr.write(`[bench] worker exited unexpectedly (code ${code}, signal ${signal})\n`);
      for (const line of this.tail) process.stderr.write(`[bench] worker: ${line}\n`);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static start(script: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<WorkerApp> {
    const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so Ctrl-C reaches only the benchmark, which then stops it in order.
      detached: true,
    });
    const worker = new WorkerApp(child);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the worker did not log "worker ready" within ${timeoutMs} ms`));
      }, timeoutMs);
      child.once('close', (code) => {
        clearTimeout(timer);
        reject(new Error(`the worker exited with code ${code} before it was ready`));
      });
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (raw) => {
          worker.tail.push(raw);
          if (worker.tail.length > 20) worker.tail.shift();
          if (levelOf(raw) >= 40) worker.warnings++;
          if (raw.includes('worker ready')) {
            clearTimeout(timer);
            resolve(worker);
          }
        });
      }
    });
  }

  /** SIGTERM (in-flight jobs finish), then SIGKILL if it has not exited within the timeout. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.closed;
    clearTimeout(timer);
  }
}
