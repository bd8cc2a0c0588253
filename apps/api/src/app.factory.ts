import fastifyCookie from '@fastify/cookie';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { AppModule } from './app.module.js';
import { ApiExceptionFilter, sendError } from './errors/api-exception.filter.js';
import { createValidationPipe } from './errors/validation.pipe.js';
import { setupOpenApi } from './openapi.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.nodeEnv === 'production',
    // Requests keep the caller's X-Request-Id when it is sane, so logs can be joined across services.
    // The raw request keeps the id too, for the pino-http logger that runs as middleware.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      (req as { id?: string }).id = id;
      return id;
    },
  });
}

/** Everything the API process and the end-to-end tests share: plugins, parsers, errors, docs. */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app.useLogger(app.get(PinoLogger));
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  // JSON is the only body type (routes that take CSV register their own parser); anything else is 415.
  fastify.removeContentTypeParser(['text/plain', 'application/x-www-form-urlencoded']);
  // Errors raised by Fastify itself, before a route handler runs (bad JSON, body too large, 415).
  fastify.setErrorHandler((error, request, reply) =>
    sendError(reply, error, (err) => request.log.error({ err }, 'unhandled error')),
  );
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  setupOpenApi(app);
}

/** Builds the API app; tests may pass extra modules (fake routes that exercise the guard). */
export async function createApiApp(
  config: AppConfig,
  extraModules: DynamicModule['imports'] = [],
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, extraModules),
    createFastifyAdapter(config),
    { bufferLogs: true },
  );
  await configureApp(app, config);
  return app;
}
