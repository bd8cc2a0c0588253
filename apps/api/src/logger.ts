import type { Params } from 'nestjs-pino';
import type { AppConfig } from '@app/config';

/** Credentials never reach a log line, and neither do request bodies (tickets). */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      // Fastify assigned the request id already (X-Request-Id or a fresh uuid).
      genReqId: (req) => (req as { id?: string }).id ?? '',
      customProps: () => ({ app: 'api' }),
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
    },
  };
}
