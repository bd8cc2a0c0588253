import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger as PinoLogger } from 'nestjs-pino';
import { describeListenError, withQuietBoot, type AppConfig } from '@app/config';
import { warmUpRedaction } from '@app/domain';
import { RedisRequirementError } from '@app/jobs';
import { Metrics } from '@app/metrics';
import { ReadinessService } from '@app/persistence';
import { stopTelemetry } from '@app/telemetry';
import { startHealthServer } from './health-server.js';
import { WorkerModule } from './worker.module.js';

const READY_TIMEOUT_MS = 30_000;

/** Boots the worker, waits for Postgres and Redis, and stops it on SIGTERM/SIGINT (main.ts calls it). */
export async function serveWorker(config: AppConfig): Promise<void> {
  warmUpRedaction();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), {
    bufferLogs: true,
  }).catch((error: unknown) => {
    // A refused Redis was logged where it was found.
    if (error instanceof RedisRequirementError) process.exit(1);
    throw error;
  });
  app.useLogger(withQuietBoot(app.get(PinoLogger)));
  const logger = new Logger('Worker');
  for (const warning of config.warnings) logger.warn(warning);

  const readiness = app.get(ReadinessService);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let state = await readiness.check();
  while (!state.ready && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    state = await readiness.check();
  }
  if (!state.ready) {
    logger.error({ checks: state.checks }, 'worker could not reach Postgres and Redis');
    await app.close();
    process.exit(1);
  }

  const health =
    config.workerHealthPort === undefined
      ? null
      : await startHealthServer(
          readiness,
          config.workerHealthPort,
          config.host,
          app.get(Metrics),
          config.metricsToken,
        ).catch(async (error: unknown) => {
          const reason = describeListenError(
            error,
            'WORKER_HEALTH_PORT',
            config.workerHealthPort!,
            config.host,
          );
          if (!reason) throw error;
          logger.error(reason);
          await app.close();
          process.exit(1);
        });
  logger.log(
    { worker: config.workerName, checks: state.checks, healthPort: config.workerHealthPort ?? null },
    'worker ready',
  );

  /** Graceful stop: app.close() closes BullMQ workers, so in-flight jobs finish or go back to the queue. */
  let stopping = false;
  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.log({ signal }, 'worker stopping');
    await health?.close();
    await app.close();
    logger.log('worker stopped');
    await stopTelemetry();
    process.exit(0);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, (s) => void shutdown(s));
  // Under `npm start` (scripts/start.mjs), the supervisor's IPC channel closes when it ends, however
  // it ends: stop as on SIGTERM rather than serve on, orphaned.
  if (process.send) {
    if (process.connected) process.once('disconnect', () => void shutdown('SIGTERM'));
    else void shutdown('SIGTERM');
  }
}
