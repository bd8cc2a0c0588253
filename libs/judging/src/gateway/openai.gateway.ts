import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import OpenAI from 'openai';
import { parseModelOutput, type FailureKind } from '@app/domain';
import { createGatewayFetch } from './gateway-fetch.js';
import type { GatewayOutcome, GatewayRequest, ModelGateway } from './model-gateway.js';
import { buildUserPrompt, responseSchemaOf, SYSTEM_PROMPT } from './prompt.js';

export interface OpenAiGatewayOptions {
  url: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

/**
 * Any OpenAI-compatible Chat Completions gateway (OpenAI, Azure OpenAI, OpenRouter, LiteLLM, vLLM,
 * Ollama) through the official client: one call per ticket, strict JSON-schema output, no retry
 * inside a judgment (a failed call is stored as `review` and can be retried by the caller).
 */
export class OpenAiGateway implements ModelGateway, OnApplicationShutdown {
  private readonly logger = new Logger(OpenAiGateway.name);
  private readonly client: OpenAI;
  private readonly closeConnections: () => Promise<void>;
  readonly defaultModelId: string;

  constructor(private readonly options: OpenAiGatewayOptions) {
    this.defaultModelId = options.model;
    const transport = createGatewayFetch({ timeoutMs: options.timeoutMs });
    this.closeConnections = transport.close;
    this.client = new OpenAI({
      baseURL: options.url,
      apiKey: options.apiKey ?? 'not-set',
      timeout: options.timeoutMs,
      maxRetries: 0,
      fetch: transport.fetch,
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.closeConnections();
  }

  async judge({ document, ticket }: GatewayRequest): Promise<GatewayOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create({
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
      });
    } catch (error) {
      const kind = failureKind(error);
      this.logger.warn(
        { kind, status: (error as { status?: number }).status, err: describe(error) },
        'model gateway call failed',
      );
      return { ok: false, kind, modelId: this.defaultModelId, latencyMs: elapsed(), detail: describe(error) };
    }
    const latencyMs = elapsed();
    const modelId =
      typeof completion?.model === 'string' && completion.model ? completion.model : this.defaultModelId;
    const parsed = parseModelOutput(document, completion?.choices?.[0]?.message?.content);
    if (!parsed.ok)
      return { ok: false, kind: 'invalid_model_output', modelId, latencyMs, detail: parsed.reason };
    const usage = completion.usage
      ? {
          inputTokens: completion.usage.prompt_tokens ?? 0,
          outputTokens: completion.usage.completion_tokens ?? 0,
        }
      : undefined;
    return { ok: true, answers: parsed.answers, modelId, latencyMs, usage };
  }
}

/**
 * 401/403 -> gateway_auth; timeouts, connection errors (the client reports them as APIError
 * subclasses), 429, 5xx and other refusals -> gateway_unavailable; anything else is a response the
 * client could not read (a body that is not JSON) -> invalid_model_output.
 */
export function failureKind(error: unknown): FailureKind {
  if (!(error instanceof OpenAI.APIError)) return 'invalid_model_output';
  return error.status === 401 || error.status === 403 ? 'gateway_auth' : 'gateway_unavailable';
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : 'unknown error';
}
