export type EvaluationStatus = 'accept' | 'review' | 'reject';
export const EVALUATION_STATUSES: readonly EvaluationStatus[] = ['accept', 'review', 'reject'];
export type EvaluationSource = 'playground' | 'api' | 'mcp' | 'webhook' | 'simulation';
export const EVALUATION_SOURCES: readonly EvaluationSource[] = [
  'playground',
  'api',
  'mcp',
  'webhook',
  'simulation',
];

/** Why a judgment could not be made; stored as `review` with the kind in `reviewReasons`. */
export type FailureKind =
  'gateway_auth' | 'gateway_unavailable' | 'invalid_model_output' | 'invalid_pack' | 'invalid_ticket';

export type Answer =
  | { type: 'choice'; choice: string; probabilities?: Record<string, number> }
  | { type: 'score'; score: number; probabilities?: Record<string, number> }
  | { type: 'boolean'; probability: number };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface Derived {
  department?: string;
  priority?: string;
  tags?: string[];
}

export interface JudgmentResult {
  status: EvaluationStatus;
  answers: Record<string, Answer>;
  reviewReasons: string[];
  modelId: string;
  latencyMs: number;
  derived?: Derived;
  usage?: Usage;
}
