import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export interface ClientOptions {
  /** Where the service runs, e.g. `https://judge.example.com` (no `/api`: the paths carry it). */
  baseUrl: string;
  /** An API key (`tj_live_…`), sent as `x-api-key` on every request. */
  apiKey: string;
  /** Another fetch (a proxy agent, a test double). Defaults to the global `fetch`. */
  fetch?: (request: Request) => Promise<Response>;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
}

/** The typed client: `GET`, `POST`, … on the paths of the service's OpenAPI document. */
export type TicketJudgeClient = Client<paths>;

/** A client typed from the service's OpenAPI document, authenticated with an API key. */
export function createTicketJudgeClient(options: ClientOptions): TicketJudgeClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, 'x-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
