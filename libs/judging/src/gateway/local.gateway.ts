import { judgeLexically, LEXICAL_MODEL_ID } from '@app/domain';
import type { GatewayOutcome, GatewayRequest, ModelGateway } from './model-gateway.js';

/** The built-in offline baseline, used when MODEL_GATEWAY_URL is unset (see docs/judging.md). */
export class LocalLexicalGateway implements ModelGateway {
  readonly defaultModelId = LEXICAL_MODEL_ID;

  judge({ document, ticket }: GatewayRequest): Promise<GatewayOutcome> {
    const started = performance.now();
    const { answers, usage } = judgeLexically(document, ticket);
    return Promise.resolve({
      ok: true,
      answers,
      usage,
      modelId: LEXICAL_MODEL_ID,
      latencyMs: Math.round(performance.now() - started),
    });
  }
}
