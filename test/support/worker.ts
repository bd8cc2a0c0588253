import { runNode, type RunningProcess } from './process.js';

const WORKER = 'dist/apps/worker/src/main.js';

/**
 * Every spec file shares the test database, and a worker's sweep re-queues stuck work of every
 * tenant: with the default interval it would judge other files' unjudged events with this file's
 * fake gateway, taking its calls and its queued behaviours. Workers sweep hourly unless a test of
 * the sweep sets its own interval.
 */
const NO_SWEEP_MS = String(60 * 60 * 1000);

/** Likewise, the calibration refit would fit other files' packs from their labels: hourly too. */
const NO_REFIT_MS = String(60 * 60 * 1000);

/** And the quality alert check would raise alerts on other files' packs and send them: hourly too. */
const NO_ALERT_CHECK_MS = String(60 * 60 * 1000);

/** A real worker process (the built app) on the given queues' namespace and model gateway. */
export async function startWorker(env: Record<string, string>): Promise<RunningProcess> {
  const worker = runNode(WORKER, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    WORKER_LOCK_MS: '3000',
    WORKER_SWEEP_MS: NO_SWEEP_MS,
    CALIBRATION_REFIT_CHECK_MS: NO_REFIT_MS,
    ALERT_CHECK_MS: NO_ALERT_CHECK_MS,
    ...env,
  });
  // A worker that never got ready is not left running behind a failed test.
  await worker.waitFor(/worker ready/).catch((error: unknown) => {
    worker.child.kill('SIGKILL');
    throw error;
  });
  return worker;
}

export async function stopWorker(worker: RunningProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
  worker.child.kill(signal);
  await worker.exited();
}

/** Polls until `check` returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
