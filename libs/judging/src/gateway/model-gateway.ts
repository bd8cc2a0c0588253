import type { Answer, FailureKind, PackDocument, Ticket, Usage } from '@app/domain';

export interface GatewayRequest {
  document: PackDocument;
  /** Already redacted: raw tickets never reach a model. */
  ticket: Ticket;
}

export type GatewayOutcome =
  | { ok: true; answers: Record<string, Answer>; modelId: string; latencyMs: number; usage?: Usage }
  | { ok: false; kind: FailureKind; modelId: string; latencyMs: number; detail: string };

/** One model call per ticket covering every question of the pack version. */
export interface ModelGateway {
  /** The model id to record when no call could be made (for example an invalid pack). */
  readonly defaultModelId: string;
  judge(request: GatewayRequest): Promise<GatewayOutcome>;
}

export const MODEL_GATEWAY = Symbol('MODEL_GATEWAY');
