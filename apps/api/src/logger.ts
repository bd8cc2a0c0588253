import type { Params } from 'nestjs-pino';
import { pino, type Logger, type LoggerOptions } from 'pino';
import type { AppConfig } from '@app/config';

/** Credentials never reach a log line, and neither do request bodies (tickets). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

function pinoOptions(config: AppConfig): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    base: { app: 'api' },
  };
}

/**
 * Fastify's own pino logger writes the request lines (`incoming request`, `request completed`,
 * with the request id). Its serializers log method, URL and status, never headers or bodies.
 */
export function requestLogger(config: AppConfig): Logger {
  return pino(pinoOptions(config));
}

/** Nest's own log lines (boot, warnings, errors) go through nestjs-pino to the same JSON format. */
export function loggerOptions(config: AppConfig): Params {
  return { pinoHttp: { ...pinoOptions(config), autoLogging: false } };
}
