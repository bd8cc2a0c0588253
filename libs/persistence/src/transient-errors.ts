/**
 * Errors that say an outside service (Postgres, Redis) was unreachable for a moment, not that the
 * request or the code was wrong: a connection cut (`pg_terminate_backend`, a failover, a restart),
 * refused or timed out. The API answers them with 503 and Retry-After; the worker retries them.
 */
const TRANSIENT_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the connection was terminated
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '53300', // too_many_connections
]);

const TRANSIENT_SYSTEM_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

const TRANSIENT_MESSAGES = [
  /^Connection terminated/, // pg: the server closed the connection
  /^timeout exceeded when trying to connect$/, // pg-pool: no connection within connectionTimeoutMillis
  /not queryable/, // pg: a client whose connection already failed
  /^Connection is closed\.$/, // ioredis
  /enableOfflineQueue options is false/, // ioredis: not connected, commands not queued
];

export function isTransientError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const driverError = (error as { driverError?: unknown }).driverError;
  if (driverError instanceof Error && isTransientError(driverError)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (TRANSIENT_SQLSTATES.has(code) || code.startsWith('08') || TRANSIENT_SYSTEM_CODES.has(code))
      return true;
  }
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return TRANSIENT_MESSAGES.some((pattern) => pattern.test(error.message));
}

/**
 * Runs `operation`, and again after 100, 200, 400... ms while it fails with a transient error, up
 * to `attempts` runs in all: for writes whose loss costs more than the wait (the record of a
 * completion already sent).
 */
export async function retryTransient<T>(
  operation: () => Promise<T>,
  attempts = 6,
  firstDelayMs = 100,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= attempts || !isTransientError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, firstDelayMs * 2 ** (attempt - 1)));
    }
  }
}
