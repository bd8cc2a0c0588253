import type { Schemas } from '../api/client';

/** Where an evaluation came from, as the API names it. */
export type EvaluationSource = Schemas['EvaluationSummaryDto']['source'];

/** Live traffic: what the Reviews page and the dashboard show unless asked for experiments too. */
export const LIVE_SOURCES: readonly EvaluationSource[] = ['api', 'webhook', 'mcp'];

/** The search parameter that holds the switch "Include playground and simulations". */
export const EXPERIMENTS_PARAM = 'experiments';

/** Whether a page's search parameters ask for the playground and simulations too. */
export function includesExperiments(params: URLSearchParams): boolean {
  return params.get(EXPERIMENTS_PARAM) === 'true';
}

/** The search parameters with the switch set (kept in the URL) or cleared (the default, left out). */
export function withExperiments(params: URLSearchParams, include: boolean): URLSearchParams {
  const next = new URLSearchParams(params);
  if (include) next.set(EXPERIMENTS_PARAM, 'true');
  else next.delete(EXPERIMENTS_PARAM);
  return next;
}

/** The `source` filter of the API for the switch: live sources, or none (every source). */
export function sourceFilter(includeExperiments: boolean): EvaluationSource[] | undefined {
  return includeExperiments ? undefined : [...LIVE_SOURCES];
}

const SOURCE_LABELS: Record<EvaluationSource, string> = {
  api: 'API',
  webhook: 'Webhook',
  mcp: 'MCP',
  playground: 'Playground',
  simulation: 'Simulation',
};

/** A source as people read it. */
export function sourceLabel(source: EvaluationSource): string {
  return SOURCE_LABELS[source] ?? source;
}

/** True for the playground and simulations, which are experiments rather than live traffic. */
export function isExperiment(source: EvaluationSource): boolean {
  return !LIVE_SOURCES.includes(source);
}
