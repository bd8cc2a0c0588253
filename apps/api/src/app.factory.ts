import fastifyCookie from '@fastify/cookie';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger as PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { withQuietBoot, type AppConfig } from '@app/config';
import { DomainError } from '@app/domain';
import { AppModule } from './app.module.js';
import { acceptsCsv, isCsvContentType } from './datasets/csv-tickets.js';
import { acceptsForm, isFormContentType, useFormParser } from './oauth/form-body.js';
import { ApiExceptionFilter } from './errors/api-exception.filter.js';
import { createValidationPipe } from './errors/validation.pipe.js';
import { HARDENED_FASTIFY_OPTIONS, refuseMissingHost, useCheckedJsonParser } from './errors/hardened-http.js';
import { OneLinePerRequest, requestLogger } from './logger.js';
import { setupOpenApi } from './openapi.js';
import { mountBullBoard } from './admin/bull-board.js';
import { serveWebApp } from './web/web-app.js';
import { serveMetrics } from './metrics-route.js';

const REQUEST_ID = /^[\w.:-]{1,128}$/;

export function createFastifyAdapter(config: AppConfig, logDestination?: DestinationStream): FastifyAdapter {
  return new FastifyAdapter({
    ...HARDENED_FASTIFY_OPTIONS,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    loggerInstance: requestLogger(config, logDestination),
    // One line per request instead of Fastify's two.
    logController: new OneLinePerRequest(),
    // Requests keep the caller's X-Request-Id when it is sane, so logs can be joined across services.
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
}

/** Everything the API process and the end-to-end tests share: plugins, parsers, errors, docs. */
export async function configureApp(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  app.useLogger(withQuietBoot(app.get(PinoLogger)));
  app.useGlobalFilters(new ApiExceptionFilter());
  app.useGlobalPipes(createValidationPipe());

  const fastify = app.getHttpAdapter().getInstance();
  refuseMissingHost(fastify);
  await app.register(fastifyCookie, { secret: config.sessionSecret });
  // Fastify's own JSON parser is the only body parser (Nest's are off; routes taking CSV add theirs),
  // so any other content type is 415. Its errors reach the exception filter through Nest.
  fastify.removeContentTypeParser('text/plain');
  useCheckedJsonParser(fastify);
  // CSV and forms are read as text (within the body limit) and only by routes that opt in with the
  // ACCEPTS_CSV or ACCEPTS_FORM route config; anywhere else such a body is refused before it is read.
  fastify.addContentTypeParser('text/csv', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  useFormParser(fastify);
  fastify.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    const config = request.routeOptions.config;
    const refused =
      (isCsvContentType(type) && !acceptsCsv(config)) || (isFormContentType(type) && !acceptsForm(config));
    done(refused ? new DomainError('unsupported_media_type', 'unsupported media type') : undefined);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // Stopping (the server no longer listens): the socket closes after this answer instead of
    // being kept alive, so the stop does not wait for idle keep-alive timeouts.
    if (!fastify.server.listening) reply.header('connection', 'close');
    done(null, payload);
  });
  serveMetrics(app, config);
  setupOpenApi(app);
  await mountBullBoard(app, config);
  await serveWebApp(app, config.webRoot);
}

export interface ApiAppOptions {
  /** Extra modules (tests: fake routes that exercise the guard). */
  extraModules?: DynamicModule['imports'];
  /** Where log lines go instead of standard output (tests read them). */
  logDestination?: DestinationStream;
}

/** Builds the API app. */
export async function createApiApp(
  config: AppConfig,
  { extraModules = [], logDestination }: ApiAppOptions = {},
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, extraModules, logDestination),
    createFastifyAdapter(config, logDestination),
    { bufferLogs: true, bodyParser: false },
  );
  await configureApp(app, config);
  return app;
}
