import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs a built entry point (dist/...) as a real child process with the given environment. */
export function runNode(script: string, env: Record<string, string | undefined>): RunningProcess {
  return runCommand([process.execPath, script], { env: { ...process.env, ...env } });
}

/** Runs `argv` as a real child process with exactly the environment given, in `cwd`. */
export function runCommand(
  argv: string[],
  { env, cwd }: { env: Record<string, string | undefined>; cwd?: string },
): RunningProcess {
  const child = spawn(argv[0], argv.slice(1), { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited: () => exit,
    // 60 s: a spec may boot two APIs and four workers at once on two cores while Jest runs other
    // specs beside it; a boot that fails still fails at once, with the process's output.
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern} in:\n${output}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        void exit.then(() => {
          if (pattern.test(output)) return;
          cleanup();
          reject(new Error(`process exited before ${pattern}:\n${output}`));
        });
        listeners.add(check);
        check();
      }),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
