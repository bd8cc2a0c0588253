import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  BearerChallengeError,
  DomainError,
  RateLimitedError,
  ValidationError,
  type DomainErrorKind,
} from '@app/domain';
import { isTransientError } from '@app/persistence';
import { JSON_RPC, jsonRpcError } from '../mcp/json-rpc.js';

const STATUS: Record<DomainErrorKind, number> = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
};

/** Framework errors by status, mapped to the contract's messages. */
const HTTP_MESSAGES: Record<number, string> = {
  400: 'invalid request',
  404: 'not found',
  405: 'method not allowed',
  406: 'not acceptable',
  413: 'request body too large',
  415: 'unsupported media type',
};

export interface ErrorResponse {
  status: number;
  body: { error: string; issues?: { path: string; message: string }[]; error_description?: string };
  headers?: Record<string, string>;
}

/** Fastify's own errors (body parsing, limits) carry a code and a 4xx statusCode. */
function fromFastifyError(error: { code?: string; statusCode?: number }): ErrorResponse | null {
  if (typeof error.code !== 'string' || !error.code.startsWith('FST_')) return null;
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return { status: 400, body: { error: 'invalid JSON' } };
  }
  // The router's refusals: no route can be chosen, and Fastify's own message would quote the path.
  if (error.code === 'FST_ERR_BAD_URL') {
    return {
      status: 400,
      body: {
        error: 'invalid request',
        issues: [{ path: 'url', message: 'must be valid percent-encoded UTF-8' }],
      },
    };
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return { status: 404, body: { error: 'not found' } };
  const status =
    error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : null;
  return status ? { status, body: { error: HTTP_MESSAGES[status] ?? 'invalid request' } } : null;
}

/** Turns anything thrown into the spec's error body; unexpected errors become a logged 500. */
export function toErrorResponse(error: unknown): ErrorResponse {
  if (error instanceof ValidationError) {
    return { status: 400, body: { error: error.message, issues: error.issues } };
  }
  if (error instanceof BearerChallengeError) {
    return { status: 401, body: { error: error.message }, headers: { 'WWW-Authenticate': error.challenge } };
  }
  if (error instanceof RateLimitedError) {
    return {
      status: 429,
      body: { error: error.message },
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  }
  if (error instanceof DomainError) return { status: STATUS[error.kind], body: { error: error.message } };
  const fastify = fromFastifyError(error as { code?: string; statusCode?: number });
  if (fastify) return fastify;
  // Nest wraps Fastify's own errors (body parsing, limits) in an HttpException with the cause kept.
  if (error instanceof HttpException && error.cause) return toErrorResponse(error.cause);
  if (error instanceof HttpException && error.getStatus() < 500) {
    const status = error.getStatus();
    return { status, body: { error: HTTP_MESSAGES[status] ?? 'invalid request' } };
  }
  // Postgres or Redis unreachable for a moment: nothing was wrong with the request, so say when to
  // send it again (with its Idempotency-Key, where the route takes one).
  if (isTransientError(error)) {
    return { status: 503, body: { error: 'service unavailable' }, headers: { 'Retry-After': '1' } };
  }
  return { status: 500, body: { error: 'internal error' } };
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    // The request's own logger: the line carries its request id, and errors go through the
    // shared `err` serializer (no query parameters, no echoed values).
    sendError(reply, error, (err) => request.log.error({ err }, 'unhandled error'), {
      oauth: request.url.startsWith('/oauth/'),
      mcp: request.routeOptions.url === '/mcp',
    });
  }
}

/** OAuth error codes for the statuses a refusal before an OAuth endpoint's own code can have. */
const OAUTH_CODES: Record<number, string> = { 401: 'invalid_client', 429: 'temporarily_unavailable' };

/**
 * The OAuth endpoints answer every refusal with the OAuth body (RFC 6749 §5.2), also those made
 * before their code runs (body parsing, nesting, text that cannot be stored), since OAuth clients
 * parse nothing else.
 */
export function toOAuthResponse({ status, body, headers }: ErrorResponse): ErrorResponse {
  const code = status >= 500 ? 'server_error' : (OAUTH_CODES[status] ?? 'invalid_request');
  const description = body.issues?.map((issue) => `${issue.path}: ${issue.message}`).join('; ') ?? body.error;
  return { status, headers, body: { error: code, error_description: description } };
}

/**
 * /mcp answers a body it cannot read as JSON-RPC 2.0 requires: a parse error (-32700) for text that
 * is not JSON, an invalid request (-32600) for JSON it refuses (too deep, NUL, unpaired surrogates).
 * Other refusals (401 with its challenge, 413, 415, 429) keep the service's error body.
 */
function toJsonRpcResponse(response: ErrorResponse): {
  status: number;
  body: object;
  headers?: Record<string, string>;
} {
  if (response.status !== 400) return response;
  const { error, issues } = response.body;
  const parse = error === 'invalid JSON';
  return {
    status: 400,
    headers: response.headers,
    body: jsonRpcError(
      parse ? JSON_RPC.parseError : JSON_RPC.invalidRequest,
      parse ? 'Parse error: invalid JSON' : `Invalid Request: ${error}`,
      issues ? { issues } : undefined,
    ),
  };
}

const codeOf = (value: unknown): unknown => (value as { code?: unknown } | null)?.code;

/**
 * The client closed the connection before its request was read to the end (an upload cancelled
 * midway): Node fails the body's stream with ECONNRESET `aborted`. Nothing failed on this side.
 */
function clientWentAway(reply: FastifyReply, error: unknown): boolean {
  const reset =
    codeOf(error) === 'ECONNRESET' || codeOf((error as { cause?: unknown } | null)?.cause) === 'ECONNRESET';
  return reset && reply.request.raw.readableAborted;
}

/** Sends the error body for anything thrown, logging (never sending) the cause of a 500. */
export function sendError(
  reply: FastifyReply,
  error: unknown,
  logUnexpected: (error: unknown) => void,
  { oauth = false, mcp = false } = {},
): void {
  const gone = clientWentAway(reply, error);
  if (gone) reply.log.info('client went away before its request was read');
  // Nobody reads the answer to a client gone away; sending one still ends the request's lifecycle.
  const response: ErrorResponse = gone
    ? { status: 400, body: { error: 'invalid request' } }
    : toErrorResponse(error);
  const { status, body, headers } = oauth
    ? toOAuthResponse(response)
    : mcp
      ? toJsonRpcResponse(response)
      : response;
  if (status >= 500) logUnexpected(error);
  void reply
    .status(status)
    .headers(headers ?? {})
    .send(body);
}
