import type { IncomingMessage, RequestOptions } from 'node:http';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation, type UndiciRequest } from '@opentelemetry/instrumentation-undici';
import { pathOf, queryOf, redactQuery, redactUrl, redisStatement } from './redact.js';

/** Probes and scrapes, every few seconds: no trace of their own. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const untraced = (target: string | undefined) => UNTRACED_PATHS.has(pathOf(target ?? ''));

/** `url.query` of an incoming request, every value redacted; nothing when it has no query. */
function incomingQuery(request: IncomingMessage): Record<string, string> {
  const query = queryOf(request.url ?? '');
  return query === '' ? {} : { 'url.query': redactQuery(query) };
}

/** `url.full` of an outgoing node:http request, without credentials or query values. */
function outgoingUrl(options: RequestOptions): Record<string, string> {
  const protocol = options.protocol ?? 'http:';
  const host = options.hostname ?? options.host ?? 'localhost';
  const port = options.port ? `:${String(options.port)}` : '';
  return { 'url.full': redactUrl(`${protocol}//${host}${port}${options.path ?? '/'}`) };
}

/** An undici request's `url.full` and `url.query`, redacted (model gateway, completion endpoints). */
function undiciUrl(request: UndiciRequest): Record<string, string> {
  const query = queryOf(request.path);
  return {
    'url.full': redactUrl(`${request.origin}${request.path}`),
    'url.query': query === '' ? '' : `?${redactQuery(query)}`,
  };
}

/**
 * The instrumentations of both apps, each told to leave out what a trace must never carry: no
 * headers (none is mapped to an attribute, so Authorization, X-API-Key and cookies stay out), no
 * query values, no SQL parameters, no Redis arguments. Spans outside a request or a job (a pool's
 * idle query, a Redis command of the cache subscriber) are not recorded.
 */
export function instrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => untraced(request.url),
      startIncomingSpanHook: incomingQuery,
      startOutgoingSpanHook: outgoingUrl,
      requireParentforOutgoingSpans: true,
    }),
    // Fastify's own span per request (route, handler); its lifecycle hooks are left out, and errors
    // are not recorded as exception events: the API's filter logs them, with the request id.
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      recordExceptions: false,
      ignorePaths: ({ url }) => untraced(url),
      requestHook: (span, request) => span.setAttribute('url.path', pathOf(request.url)),
    }),
    // Statements are parameterised; their values stay out (`enhancedDatabaseReporting: false`).
    new PgInstrumentation({
      enhancedDatabaseReporting: false,
      requireParentSpan: true,
      addSqlCommenterCommentToQueries: false,
      ignoreConnectSpans: true,
    }),
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: redisStatement,
    }),
    new UndiciInstrumentation({ requireParentforSpans: true, startSpanHook: undiciUrl }),
  ];
}
