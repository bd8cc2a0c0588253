/** One issue of a schema failure: the path of the field the API refused and why. */
export interface Issue {
  path: string;
  message: string;
}

/**
 * A refusal from the API in the service's error shape (`{error, issues?}`), with the HTTP status.
 * `message` is the service's `error` string, which is stable enough to match on (`pack not found`).
 */
export class TicketJudgeError extends Error {
  override readonly name = 'TicketJudgeError';

  constructor(
    readonly status: number,
    message: string,
    readonly issues: Issue[] = [],
    /** Requests sent before giving up (1 unless a retrying helper sent more). */
    readonly attempts = 1,
  ) {
    super(message);
  }

  /** From a response and its parsed body (anything: a proxy's 502 page is not the service's JSON). */
  static from(response: Response, body: unknown, attempts = 1): TicketJudgeError {
    const { error, issues } = (typeof body === 'object' && body !== null ? body : {}) as {
      error?: unknown;
      issues?: unknown;
    };
    return new TicketJudgeError(
      response.status,
      typeof error === 'string' ? error : `request failed with HTTP ${response.status}`,
      Array.isArray(issues) ? (issues as Issue[]) : [],
      attempts,
    );
  }
}
