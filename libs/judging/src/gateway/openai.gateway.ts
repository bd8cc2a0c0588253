import { Logger, type OnApplicationShutdown } from '@nestjs/common';
// Types only: the official definitions check the request and the completion at compile time.
import type OpenAI from 'openai';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { parseModelOutput, type FailureKind } from '@app/domain';
import type { GatewayOutcome, GatewayRequest, ModelGateway } from './model-gateway.js';
import { buildUserPrompt, responseSchemaOf, SYSTEM_PROMPT } from './prompt.js';

type ChatRequest = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;

export interface OpenAiGatewayOptions {
  url: string;
  apiKey?: string;
  /** OPENAI_ORG_ID: sent as `OpenAI-Organization` when set. */
  organization?: string;
  /** OPENAI_PROJECT_ID: sent as `OpenAI-Project` when set. */
  project?: string;
  model: string;
  timeoutMs: number;
}

/** What came back from the gateway: its status and its whole body as text. */
interface GatewayReply {
  status: number;
  text: string;
}

/** Gateway error messages are logged only this far. */
const DETAIL_CHARS = 300;
/**
 * The most of an answer read: a completion for the largest pack is a few kB, so anything near this
 * is a misbehaving gateway, not a judgment, and it must not fill the process's memory.
 */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** What an HTTP header value may hold (RFC 9110 field-value); a key that breaks it is refused at boot. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Any OpenAI-compatible Chat Completions gateway (OpenAI, Azure OpenAI, OpenRouter, LiteLLM, vLLM,
 * Ollama): one `POST {MODEL_GATEWAY_URL}/chat/completions` per ticket with strict JSON-schema output,
 * and no retry inside a judgment (a failed call is stored as `review` and can be retried by the
 * caller). The call is one undici request on the gateway's own keep-alive pool, not the official
 * client: a Chat Completions call is one JSON POST and one JSON answer, and the client's work around
 * it (headers, request options, a fetch Response per answer) was a sixth of a worker's CPU per
 * judgment (docs/performance.md). Its types still check what is sent and read.
 */
export class OpenAiGateway implements ModelGateway, OnApplicationShutdown {
  private readonly logger = new Logger(OpenAiGateway.name);
  private readonly endpoint: string;
  private readonly headers: Record<string, string>;
  private readonly dispatcher: Dispatcher;
  readonly defaultModelId: string;

  constructor(private readonly options: OpenAiGatewayOptions) {
    this.defaultModelId = options.model;
    // The base URL names the API prefix (`https://api.openai.com/v1`); the path is appended to it,
    // before a query string some deployments need (`?api-version=…`), as the official client does.
    const endpoint = new URL(options.url);
    endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, '')}/chat/completions`;
    endpoint.hash = '';
    this.endpoint = endpoint.href;
    const apiKey = headerValue('MODEL_GATEWAY_API_KEY', options.apiKey) ?? 'not-set';
    // The official client sent these from the same variables; OpenAI bills the call to them.
    const organization = headerValue('OPENAI_ORG_ID', options.organization);
    const project = headerValue('OPENAI_PROJECT_ID', options.project);
    this.headers = {
      'content-type': 'application/json',
      accept: 'application/json',
      authorization: `Bearer ${apiKey}`,
      'user-agent': 'ticket-judge',
      ...(organization && { 'openai-organization': organization }),
      ...(project && { 'openai-project': project }),
    };
    // 4 s idle, as Node's own fetch: servers such as uvicorn (under LiteLLM and vLLM) close idle
    // connections after 5 s, and reusing one they just closed would fail a judgment. Redirects are
    // followed like fetch does (a gateway URL that lost a trailing slash, say), at most three.
    this.dispatcher = new Agent({
      keepAliveTimeout: 4_000,
      maxResponseSize: MAX_ANSWER_BYTES,
    }).compose(interceptors.redirect({ maxRedirections: 3 }));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.close();
  }

  async judge({ document, ticket }: GatewayRequest): Promise<GatewayOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const chat: ChatRequest = {
      model: this.options.model,
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: buildUserPrompt(document, ticket) },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'ticket_judgment', strict: true, schema: responseSchemaOf(document) },
      },
    };
    let reply: GatewayReply;
    try {
      reply = await this.post(JSON.stringify(chat));
    } catch (error) {
      // Refused, reset, cut mid-body or past MODEL_TIMEOUT_MS.
      return this.failed('gateway_unavailable', undefined, describe(error), elapsed());
    }
    if (reply.status < 200 || reply.status > 299)
      return this.failed(failureKind(reply.status), reply.status, statusDetail(reply), elapsed());
    let completion: Partial<ChatCompletion> | null;
    try {
      completion = JSON.parse(reply.text) as Partial<ChatCompletion> | null;
    } catch (error) {
      // A 2xx the gateway did not answer in JSON: the call went through, its output is unusable.
      return this.failed('invalid_model_output', reply.status, describe(error), elapsed());
    }
    const latencyMs = elapsed();
    const modelId =
      typeof completion?.model === 'string' && completion.model ? completion.model : this.defaultModelId;
    const parsed = parseModelOutput(document, completion?.choices?.[0]?.message?.content);
    if (!parsed.ok)
      return { ok: false, kind: 'invalid_model_output', modelId, latencyMs, detail: parsed.reason };
    const usage = completion?.usage
      ? {
          inputTokens: completion.usage.prompt_tokens ?? 0,
          outputTokens: completion.usage.completion_tokens ?? 0,
        }
      : undefined;
    return { ok: true, answers: parsed.answers, modelId, latencyMs, usage };
  }

  /** One POST, its whole answer read within MODEL_TIMEOUT_MS; a body cut off midway throws. */
  private async post(body: string): Promise<GatewayReply> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new DOMException('no whole answer within MODEL_TIMEOUT_MS', 'TimeoutError')),
      this.options.timeoutMs,
    );
    try {
      const answer = await request(this.endpoint, {
        method: 'POST',
        headers: this.headers,
        body,
        signal: deadline.signal,
        dispatcher: this.dispatcher,
      });
      return { status: answer.statusCode, text: await answer.body.text() };
    } finally {
      clearTimeout(timer);
    }
  }

  private failed(
    kind: FailureKind,
    status: number | undefined,
    detail: string,
    latencyMs: number,
  ): GatewayOutcome {
    this.logger.warn({ kind, status, err: detail }, 'model gateway call failed');
    return { ok: false, kind, modelId: this.defaultModelId, latencyMs, detail };
  }
}

/**
 * A setting sent as a header, trimmed (a value read from a secret file often ends in a newline);
 * undefined when unset or blank. One no header can carry stops the process at start.
 */
function headerValue(variable: string, value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (!FIELD_VALUE.test(trimmed))
    throw new Error(`${variable} holds a character an HTTP header cannot carry`);
  return trimmed;
}

/** 401 and 403 -> gateway_auth; any other refusal (429, 5xx, a redirect past the third) -> gateway_unavailable. */
export function failureKind(status: number): FailureKind {
  return status === 401 || status === 403 ? 'gateway_auth' : 'gateway_unavailable';
}

/**
 * The status, with the gateway's own message when it sent one in JSON (`error.message`, or `error` as
 * a string). Nothing else of the body is kept: the log never carries the ticket, and a gateway's
 * error page may echo the request.
 */
function statusDetail({ status, text }: GatewayReply): string {
  let message: unknown;
  try {
    const error = (JSON.parse(text) as { error?: unknown } | null)?.error;
    message = typeof error === 'string' ? error : (error as { message?: unknown } | null)?.message;
  } catch {
    // Not JSON: the status alone.
  }
  return typeof message === 'string'
    ? `${status} ${message}`.slice(0, DETAIL_CHARS)
    : `${status} status code (no error message)`;
}

/** Name and message of what was thrown (undici's errors and a timeout's DOMException alike). */
function describe(error: unknown): string {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  return typeof message === 'string'
    ? `${typeof name === 'string' ? name : 'Error'}: ${message}`.slice(0, DETAIL_CHARS)
    : 'unknown error';
}
