import type { LoggerOptions } from 'pino';
import type { AppConfig } from './app-config.js';
import { serializeRequest } from './logged-request.js';

/** Credentials never reach a log line, and neither do request bodies (tickets). */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
];

/** Error fields that name what failed without carrying data (SQLSTATE, constraint, errno…). */
const SAFE_ERROR_FIELDS = [
  'code',
  'constraint',
  'table',
  'column',
  'dataType',
  'routine',
  'errno',
  'syscall',
];

interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  statement?: string;
  cause?: LoggedError | string;
  [field: string]: unknown;
}

/** A failed query: TypeORM's QueryFailedError or a driver error carrying a SQLSTATE. */
function isDatabaseError(error: Error & Record<string, unknown>): boolean {
  return (
    'query' in error ||
    'parameters' in error ||
    'driverError' in error ||
    (typeof error.code === 'string' && /^[0-9A-Z]{5}$/.test(error.code) && 'severity' in error)
  );
}

/** `INSERT INTO evaluations`, `SELECT … FROM packs`: what ran, never with what. */
export function describeStatement(sql: string): string {
  const text = sql.replace(/\s+/g, ' ').trim();
  const write = /\b(INSERT INTO|UPDATE|DELETE FROM) "?([\w.]+)/i.exec(text);
  if (write) return `${write[1].toUpperCase()} ${write[2]}`;
  const read = /^(?:WITH|SELECT)\b.*?\bFROM "?([\w.]+)/i.exec(text.slice(0, 2000));
  return read ? `SELECT … FROM ${read[1]}` : text.slice(0, 40);
}

/**
 * Postgres echoes offending values in double quotes (`invalid input syntax for type uuid: "…"`),
 * and its `detail` holds key values, so quoted text is dropped and `detail` is never logged.
 */
function withoutQuotedValues(message: string): string {
  return message.replace(/"[^"]*"/g, '"…"').slice(0, 300);
}

function stackFrames(error: Error): string | undefined {
  const at = error.stack?.indexOf('\n    at ') ?? -1;
  return at >= 0 ? error.stack!.slice(at + 1) : undefined;
}

/**
 * The `err` serializer of every logger: type, message and stack, plus the few fields that say what
 * failed. Anything else an error carries (a query's parameters, a driver's `detail`, request
 * bodies attached by libraries) is left out, so no ticket text or secret reaches the logs.
 */
export function serializeError(error: unknown, depth = 0): LoggedError | string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error.slice(0, 300) : String(error);
  const fields = error as Error & Record<string, unknown>;
  const database = isDatabaseError(fields);
  const logged: LoggedError = {
    type: error.constructor?.name ?? error.name,
    message: database ? withoutQuotedValues(error.message) : error.message,
    stack: stackFrames(error),
  };
  for (const field of SAFE_ERROR_FIELDS) {
    const value = fields[field] ?? (fields.driverError as Record<string, unknown> | undefined)?.[field];
    if (typeof value === 'string' || typeof value === 'number') logged[field] = value;
  }
  if (database && typeof fields.query === 'string') logged.statement = describeStatement(fields.query);
  if (error.cause !== undefined && depth < 3) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}

/** One set of pino options for the API and the worker. */
export function logOptions(config: AppConfig, app: 'api' | 'worker'): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
    base: { app, pid: process.pid },
    serializers: { err: serializeError, req: serializeRequest },
  };
}
