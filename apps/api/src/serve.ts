import { Logger } from '@nestjs/common';
import { describeListenError, type AppConfig } from '@app/config';
import { warmUpRedaction } from '@app/domain';
import { RedisRequirementError } from '@app/jobs';
import { stopTelemetry } from '@app/telemetry';
import { createApiApp } from './app.factory.js';

/**
 * How long a stop waits for requests in flight before cutting them: within Kubernetes' default
 * 30 s grace period after the manifests' 10 s preStop pause (deploy/k8s).
 */
const DRAIN_TIMEOUT_MS = 15_000;

/** Boots the API on HOST:PORT and stops it gracefully on SIGTERM/SIGINT (main.ts calls it). */
export async function serveApi(config: AppConfig): Promise<void> {
  warmUpRedaction();
  const app = await createApiApp(config);
  const logger = new Logger('Api');
  for (const warning of config.warnings) logger.warn(warning);
  try {
    // Fastify's own listen, after Nest's init: Nest's listen would log the raw error first.
    await app.init();
    await app.getHttpAdapter().getInstance().listen({ port: config.port, host: config.host });
  } catch (error) {
    // A refused Redis was logged where it was found; a busy port is logged here.
    const reason =
      error instanceof RedisRequirementError
        ? null
        : describeListenError(error, 'PORT', config.port, config.host);
    if (!reason && !(error instanceof RedisRequirementError)) throw error;
    if (reason) logger.error(reason);
    await app.close();
    process.exit(1);
  }
  logger.log(`API listening on http://${config.host}:${config.port} (the app at /, docs at /docs)`);

  /**
   * Graceful stop: no new connections, every request in flight answered (each with `Connection:
   * close`, so kept-alive sockets end with it), then Postgres, Redis and the queues are closed.
   */
  let stopping = false;
  async function shutdown(signal: NodeJS.Signals): Promise<void> {
    if (stopping) return;
    stopping = true;
    logger.log({ signal }, 'API stopping: finishing requests in flight');
    const server = app.getHttpAdapter().getInstance().server;
    const deadline = setTimeout(() => {
      logger.warn({ afterMs: DRAIN_TIMEOUT_MS }, 'API stop: cutting requests still in flight');
      server.closeAllConnections();
    }, DRAIN_TIMEOUT_MS).unref();
    await app.close();
    clearTimeout(deadline);
    logger.log('API stopped');
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
