import type { Params } from 'nestjs-pino';
import { pino, type DestinationStream, type Logger } from 'pino';
import { logOptions, type AppConfig } from '@app/config';

/**
 * Fastify's own pino logger writes the request lines (`incoming request`, `request completed`,
 * with the request id). Its serializers log method, URL (secret query values redacted, see
 * logged-request.ts) and status, never headers or bodies.
 * `destination` is standard output unless a test captures the lines.
 */
export function requestLogger(config: AppConfig, destination?: DestinationStream): Logger {
  return destination ? pino(logOptions(config, 'api'), destination) : pino(logOptions(config, 'api'));
}

/**
 * Nest's own log lines (boot, warnings) go through nestjs-pino to the same JSON format. nestjs-pino
 * keeps one root logger per process, so a second app in one test process logs through the first's.
 */
export function loggerOptions(config: AppConfig, destination?: DestinationStream): Params {
  const options = { ...logOptions(config, 'api'), autoLogging: false };
  return { pinoHttp: destination ? [options, destination] : options };
}
