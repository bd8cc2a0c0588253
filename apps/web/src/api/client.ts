import createClient from 'openapi-fetch';
import type { components, paths } from '../../../../clients/typescript/src/schema';

/**
 * Typed from the service's own OpenAPI document, by the TypeScript client's generated types (`npm run
 * client:types`: one copy for both); same origin, session cookie.
 */
export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });

export type Schemas = components['schemas'];

export interface Issue {
  path: string;
  message: string;
}

/** A refusal in the contract's shape: `{error, issues?}` with the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
  }

  /** The message for one field (`path` as the API names it, e.g. `ticket.subject`), if any. */
  issueFor(path: string): string | undefined {
    return this.issues.find((issue) => issue.path === path || issue.path.startsWith(`${path}.`))?.message;
  }
}

/** Where the browser goes when the session is missing or has expired. */
export function signInUrl(): string {
  const here = window.location.pathname + window.location.search;
  return `/login?next=${encodeURIComponent(here === '/login' ? '/' : here)}`;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a call, or an ApiError. A 401 sends the browser to the sign-in page, which brings it
 * back here afterwards.
 */
export async function unwrap<T>(call: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  if (response.status === 401) window.location.assign(signInUrl());
  const body = (error ?? {}) as { error?: unknown; issues?: unknown };
  throw new ApiError(
    response.status,
    typeof body.error === 'string' ? body.error : `request failed (${response.status})`,
    Array.isArray(body.issues) ? (body.issues as Issue[]) : [],
  );
}

/** A message for any error a query or mutation can throw. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return error.issues.length
      ? `${error.message}: ${error.issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}`
      : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
