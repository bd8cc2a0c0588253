/** One problem with a request field: where (`questions.2.id`, `headers.idempotency-key`) and what. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * Typed errors thrown by domain and service code. The API's one exception filter maps each kind
 * to its HTTP status; the message is what clients match on, so it is part of the contract.
 */
export type DomainErrorKind =
  | 'invalid_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(
    readonly issues: ValidationIssue[],
    message = 'invalid request',
  ) {
    super('invalid_request', message);
  }
}

/** A 400 that is not a schema failure (a label that does not fit, a dataset over its limit). */
export class BadRequestError extends DomainError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(
    message:
      | 'API key required'
      | 'invalid API key'
      | 'sign in required'
      | 'invalid email or password'
      | 'invalid signature',
  ) {
    super('unauthenticated', message);
  }
}

/**
 * 401 from a protected resource that takes OAuth bearer tokens (the MCP endpoint): it carries the
 * `WWW-Authenticate` challenge that tells a client where to get a token (RFC 6750, RFC 9728).
 */
export class BearerChallengeError extends DomainError {
  constructor(
    message: 'access token required' | 'invalid access token',
    readonly challenge: string,
  ) {
    super('unauthenticated', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

export class MissingPermissionError extends ForbiddenError {
  constructor(permission: string) {
    super(`missing permission ${permission}`);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not_found', message);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string) {
    super('conflict', message);
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('rate_limited', 'rate limit exceeded');
  }
}
