import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PRODUCTION_NODE_FLAGS } from './node-flags.js';

/** Lines kept per worker: a run logs a handful at `info`, so this only bounds a runaway. */
const MAX_LINES = 5_000;

export interface WorkerLogLine {
  /** pino's numeric level (30 info, 40 warn, 50 error); 0 for a line that is not pino JSON. */
  level: number;
  /** Epoch milliseconds (pino's `time`), or when the line arrived. */
  time: number;
  msg: string;
  raw: string;
}

function parseLine(raw: string): WorkerLogLine {
  try {
    const line = JSON.parse(raw) as { level?: number; time?: number; msg?: string };
    return { level: line.level ?? 0, time: line.time ?? Date.now(), msg: line.msg ?? '', raw };
  } catch {
    return { level: 0, time: Date.now(), msg: raw, raw };
  }
}

/**
 * The real worker app (`node dist/apps/worker/src/main.js`) as a plain child process: ready once
 * it logs `worker ready`, stopped with SIGTERM like an orchestrator would (in-flight jobs finish).
 * Its output is kept in memory for the report instead of being printed.
 */
export class WorkerProcess {
  readonly lines: WorkerLogLine[] = [];
  /** Set when it exits without being asked to. */
  died = false;
  private stopping = false;
  private readonly exited: Promise<void>;
  /** Called with every stdout line until the worker is ready. */
  private onStdout?: (raw: string) => void;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    // `close` rather than `exit`: by then every line of its output has been read.
    this.exited = new Promise((resolve) => child.once('close', () => resolve()));
    child.once('close', (code, signal) => {
      if (this.stopping) return;
      this.died = true;
      process.stderr.write(`[bench] ${name} exited unexpectedly (code ${code}, signal ${signal})\n`);
      for (const line of this.lines.slice(-20)) process.stderr.write(`[bench] ${name}: ${line.raw}\n`);
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (raw) => {
        if (this.lines.length < MAX_LINES) this.lines.push(parseLine(raw));
        if (stream === child.stdout) this.onStdout?.(raw);
      });
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  static start(
    name: string,
    script: string,
    env: NodeJS.ProcessEnv,
    options: { nodeArgs?: string[]; timeoutMs?: number } = {},
  ): Promise<WorkerProcess> {
    const timeoutMs = options.timeoutMs ?? 60_000;
    const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, ...(options.nodeArgs ?? []), script], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so Ctrl-C reaches only the benchmark, which then stops it in order.
      detached: true,
    });
    const worker = new WorkerProcess(name, child);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`${name} did not log "worker ready" within ${timeoutMs} ms`));
      }, timeoutMs);
      const onExit = (code: number | null) => {
        clearTimeout(timer);
        worker.onStdout = undefined;
        // Its last lines are on stderr already (the `close` handler above).
        reject(new Error(`${name} exited with code ${code} before it was ready`));
      };
      child.once('close', onExit);
      worker.onStdout = (raw) => {
        if (!raw.includes('worker ready')) return;
        clearTimeout(timer);
        child.off('close', onExit);
        worker.onStdout = undefined;
        resolve(worker);
      };
    });
  }

  /** SIGTERM, then waits for the exit; SIGKILL if it has not exited within the timeout. */
  async stop(timeoutMs = 15_000): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    await this.exited;
    clearTimeout(timer);
  }
}
