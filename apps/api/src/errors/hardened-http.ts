import type { FastifyHttpOptions, FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { DomainError, ValidationError } from '@app/domain';
import type { RawBodyRequest } from '../webhooks/raw-body.js';
import { sendError } from './api-exception.filter.js';
import { findMalformedJson, findMalformedQuery } from './well-formed-input.js';

/** Answers written straight to the socket when Node's HTTP parser refuses a request. */
const CLIENT_ERRORS: Record<string, [status: number, reason: string, error: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request header fields too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request timeout'],
};
const MALFORMED_REQUEST: [number, string, string] = [400, 'Bad Request', 'invalid request'];

/**
 * A request Node could not parse (oversized URL or headers, broken HTTP) never reaches Fastify's
 * routes; it still gets the contract's `{error}` body instead of Fastify's own.
 */
function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED_REQUEST;
  const body = JSON.stringify({ error: message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Fastify options under which every refusal has the contract's body: the router's own errors (bad
 * percent-encoding, an over-long path segment) go through the exception filter's mapping, and
 * path segments may be long enough for a route to answer its own 404 for a malformed id.
 */
export const HARDENED_FASTIFY_OPTIONS = {
  routerOptions: { maxParamLength: 2048 },
  // Node itself would answer an HTTP/1.1 request without Host with an empty 400; refuseMissingHost
  // gives that refusal the contract's body instead.
  http: { requireHostHeader: false },
  clientErrorHandler,
  frameworkErrors: (error, request, reply) => {
    // These replies skip the route hooks, so the request id header is set here.
    void reply.header('x-request-id', request.id);
    sendError(reply, error, (err) => request.log.error({ err }, 'unhandled error'));
  },
} satisfies Pick<FastifyServerOptions, 'routerOptions' | 'clientErrorHandler' | 'frameworkErrors'> &
  Pick<FastifyHttpOptions<Server>, 'http'>;

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2), and Node's own check (off, see above) refused
 * only HTTP/1.1 requests without one; the same rule, answered with `{"error":"invalid request"}`.
 * HTTP/1.0 has no Host header, so its requests stay allowed, as Node allowed them.
 */
export function refuseMissingHost(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const missing = request.raw.httpVersion === '1.1' && !request.headers.host;
    done(missing ? new DomainError('invalid_request', 'invalid request') : undefined);
  });
}

/**
 * Fastify's JSON parsing (same errors and protections, prototype keys refused), keeping the exact
 * bytes (signed inbound webhooks are verified against the raw body) and refusing, before any
 * validation, bodies nested deeper than MAX_JSON_DEPTH or holding text Postgres cannot store.
 */
export function useCheckedJsonParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    (request as RawBodyRequest).rawBody = body as string;
    void parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined);
      const issue = findMalformedJson(value);
      done(issue ? new ValidationError([issue]) : null, value);
    });
  });
  // Query strings are decoded by Fastify (`%00` becomes NUL); the same rule holds for them.
  fastify.addHook('preValidation', (request, _reply, done) => {
    const issue = findMalformedQuery(request.query);
    done(issue ? new ValidationError([issue]) : undefined);
  });
}
