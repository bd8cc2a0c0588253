/** The error codes of RFC 6749 §5.2 and §4.1.2.1, RFC 7591 §3.2.2 and RFC 8707 this server answers with. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'temporarily_unavailable';

/**
 * An OAuth protocol error, answered with the OAuth body `{error, error_description}` (not the REST
 * one): clients' OAuth libraries match on `error`.
 */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    /** Sent as `Retry-After` (a 429 or 503 says when to come back). */
    readonly retryAfterSeconds?: number,
  ) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/** A wrong authorization request, found before the user decided: shown as a page, never redirected. */
export class AuthorizationPageError extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = 'AuthorizationPageError';
  }
}
