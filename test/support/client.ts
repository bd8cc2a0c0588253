import { randomUUID } from 'node:crypto';

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, with the given content type (for invalid JSON, CSV, wrong content types). */
  raw?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
  /** Overrides the client's credentials for this request. */
  apiKey?: string | null;
  cookie?: string | null;
}

/** A small HTTP client over fetch that keeps a session cookie and/or an API key. */
export class Client {
  cookie: string | null = null;
  apiKey: string | null = null;

  constructor(readonly baseUrl: string) {}

  withKey(apiKey: string): Client {
    const client = new Client(this.baseUrl);
    client.apiKey = apiKey;
    return client;
  }

  get<T = any>(path: string, options: RequestOptions = {}) {
    return this.request<T>('GET', path, options);
  }

  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }

  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, body });
  }

  delete<T = any>(path: string, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, options);
  }

  async request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const apiKey = options.apiKey === undefined ? this.apiKey : options.apiKey;
    const cookie = options.cookie === undefined ? this.cookie : options.cookie;
    if (apiKey) headers['x-api-key'] = apiKey;
    if (cookie) headers.cookie = cookie;
    let body: string | Buffer | undefined;
    if (options.raw !== undefined) {
      body = options.raw;
      if (options.contentType) headers['content-type'] = options.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = options.contentType ?? 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('tj_session='));
    if (setCookie) this.cookie = setCookie.split(';')[0];
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomUUID()}@example.com`;
}

export const PASSWORD = 'correct horse battery staple';

/** Signs up a fresh user (a new tenant per test) and returns a client holding its session. */
export async function signUp(
  baseUrl: string,
  email = uniqueEmail(),
): Promise<{ client: Client; user: { id: string; email: string } }> {
  const client = new Client(baseUrl);
  const res = await client.post('/api/auth/sign-up', { email, password: PASSWORD });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${res.text}`);
  return { client, user: res.body.user };
}

/** Creates an API key for the signed-in client and returns a key-only client and the key. */
export async function createKey(
  session: Client,
  permissions?: string[],
): Promise<{ client: Client; key: { id: string; secret: string; permissions: string[] } }> {
  const res = await session.post('/app/keys', { name: 'test key', ...(permissions ? { permissions } : {}) });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${res.text}`);
  return { client: session.withKey(res.body.secret), key: res.body };
}

/** A user with a session client and a key client holding every permission. */
export async function newTenant(baseUrl: string) {
  const { client: session, user } = await signUp(baseUrl);
  const { client: keyed, key } = await createKey(session);
  return { session, keyed, user, key };
}
