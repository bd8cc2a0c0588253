import { Agent, interceptors, request, type Dispatcher } from 'undici';

type HeadersLike =
  Iterable<readonly [string, string]> | Record<string, string | readonly string[] | undefined>;

/** Statuses whose response has no body: the Response constructor refuses one for them. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** What the Response constructor accepts as a status text; any other reason phrase is dropped. */
const REASON_PHRASE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Request headers as the plain object undici's `request` takes. Anything iterable (a Headers, from
 * this realm or another, or a list of pairs) is read by iterating it, so no `instanceof` decides.
 */
function flatHeaders(headers: HeadersLike | undefined): Record<string, string> {
  const flat: Record<string, string> = {};
  if (!headers) return flat;
  const entries = Symbol.iterator in headers ? headers : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return flat;
}

/** Members that BufferedResponse redefines; undici's typings declare them as fields, not methods. */
type BodyMembers = 'body' | 'bodyUsed' | 'arrayBuffer' | 'blob' | 'formData' | 'json' | 'text' | 'clone';
const PlatformResponse: new (body: null, init: ResponseInit) => Omit<Response, BodyMembers> = Response;
const utf8 = new TextDecoder();

/**
 * A real web Response (status, ok, statusText and a real Headers come from the platform class) over
 * an answer already read whole. A Response built with a body makes a web stream for it, which the
 * client would then read chunk by chunk, a measurable share of a judgment's CPU for one small JSON
 * answer. So `text` and `json`, all the client reads, decode the bytes directly; the first use of
 * anything else (`body`, `arrayBuffer`, `blob`, `formData`, `clone`) builds a plain Response over
 * them, which answers for the body from then on.
 */
class BufferedResponse extends PlatformResponse {
  #bytes: Uint8Array | null;
  #used = false;
  #plain: Response | undefined;

  constructor(bytes: Uint8Array | null, init: ResponseInit) {
    super(null, init);
    this.#bytes = bytes;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#streamed().body;
  }

  get bodyUsed(): boolean {
    return this.#plain ? this.#plain.bodyUsed : this.#used;
  }

  async text(): Promise<string> {
    if (this.#plain) return this.#plain.text();
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read');
    this.#used = true;
    return this.#bytes ? utf8.decode(this.#bytes) : '';
  }

  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return this.#streamed().arrayBuffer();
  }

  blob(): Promise<Blob> {
    return this.#streamed().blob();
  }

  formData(): Promise<FormData> {
    return this.#streamed().formData();
  }

  clone(): Response {
    return this.#streamed().clone();
  }

  /** A plain Response over the bytes, its body already used if they were read here. */
  #streamed(): Response {
    if (!this.#plain) {
      const { status, statusText, headers } = this;
      this.#plain = new Response(this.#bytes, { status, statusText, headers });
      if (this.#used) void this.#plain.body?.cancel();
    }
    return this.#plain;
  }
}

function toResponse(answer: Dispatcher.ResponseData, bytes: Uint8Array): Response {
  const response = new BufferedResponse(NULL_BODY_STATUSES.has(answer.statusCode) ? null : bytes, {
    status: answer.statusCode,
    statusText: REASON_PHRASE.test(answer.statusText) ? answer.statusText : '',
  });
  for (const [name, value] of Object.entries(answer.headers)) {
    if (Array.isArray(value)) for (const item of value) response.headers.append(name, item);
    else if (value !== undefined) response.headers.append(name, value);
  }
  return response;
}

/**
 * A fetch for the OpenAI client over undici's lower-level `request`, on its own keep-alive pool.
 * The default (global) fetch runs fetch's full algorithm and streams both bodies through web
 * streams, a large share of the API's CPU per judgment (see docs/performance.md); a Chat
 * Completions call is one JSON POST and one JSON answer, so this sends it directly and answers with
 * a real `Response` over the bytes read. Reading them here, not in the client, keeps a connection
 * cut mid-body a connection error (APIConnectionError) rather than an unreadable answer. Bodies
 * other than strings and bytes, which this gateway never sends, go to the global fetch.
 */
export function createGatewayFetch(options: { timeoutMs: number }): {
  fetch: typeof fetch;
  close: () => Promise<void>;
} {
  // 4 s idle, as Node's own fetch: servers such as uvicorn (under LiteLLM and vLLM) close idle
  // connections after 5 s, and reusing one they just closed would fail a judgment. Redirects are
  // followed like fetch does (a gateway URL that lost a trailing slash, say), at most three.
  const agent = new Agent({
    keepAliveTimeout: 4_000,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: 3 }));
  const gatewayFetch = async (input: string | URL | Request, init: RequestInit = {}) => {
    const body = init.body;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
    if (url === undefined || (body != null && typeof body !== 'string' && !(body instanceof Uint8Array)))
      return fetch(input, init);
    const answer = await request(url, {
      method: (init.method ?? 'GET') as 'GET',
      headers: flatHeaders(init.headers as HeadersLike | undefined),
      body: body ?? undefined,
      signal: init.signal ?? undefined,
      dispatcher,
    });
    return toResponse(answer, await answer.body.bytes());
  };
  return { fetch: gatewayFetch, close: () => dispatcher.close() };
}
