import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Params } from 'nestjs-pino';
import { pino, type DestinationStream, type Logger } from 'pino';
import { logOptions, type AppConfig } from '@app/config';

/**
 * Fastify's request lines: one per request, when it is answered, instead of Fastify's two
 * (`incoming request` and `request completed`). Method and URL go through the `req` serializer
 * (secret query values redacted), with the route's template, the status and the time taken.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = {
      req: request,
      route: request.routeOptions.url,
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Fastify's own pino logger writes the request lines (OneLinePerRequest), with the request id. Its
 * serializers log method and URL (secret query values redacted, see logged-request.ts), never
 * headers or bodies.
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
