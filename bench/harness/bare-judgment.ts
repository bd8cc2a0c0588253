// The floors' judgment (`judge.bare.ts`, `scale.floor-worker.ts`): the one model call over an undici
// pool and the evaluation stored with the product's own INSERT, and nothing else.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Pool as HttpPool } from 'undici';
// The product's own row and INSERT, which the lib keeps to itself (its barrel serves the apps).
import {
  toEvaluationRow,
  type NewEvaluation as Evaluation,
} from '../../libs/persistence/src/repositories/evaluation-rows.js';
import { insertEvaluation } from '../../libs/persistence/src/statements/evaluations.statements.js';

interface Completion {
  model: string;
  choices: Array<{ message: { content: string } }>;
  usage: { prompt_tokens: number; completion_tokens: number };
}

/** The pack a floor judges with: its user and live version, read once at start. */
export interface BarePack {
  packId: string;
  userId: string;
  packVersionId: string;
}

export async function readBarePack(pool: pg.Pool, packId: string): Promise<BarePack> {
  const { rows } = await pool.query<{ user_id: string; live_version_id: string }>(
    'SELECT user_id, live_version_id FROM packs WHERE id = $1',
    [packId],
  );
  if (!rows[0]) throw new Error(`pack ${packId} not found`);
  return { packId, userId: rows[0].user_id, packVersionId: rows[0].live_version_id };
}

/**
 * Sends `chatRequest` (the exact JSON the service sent) to the gateway at `url`, parses the answer,
 * inserts it as an accepted evaluation of `ticket`, and returns its id and result.
 */
export async function judgeBare(
  { pool, http, url, pack }: { pool: pg.Pool; http: HttpPool; url: URL; pack: BarePack },
  chatRequest: string,
  ticket: unknown,
) {
  const started = performance.now();
  const response = await http.request({
    path: url.pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer not-set' },
    body: chatRequest,
  });
  if (response.statusCode !== 200) throw new Error(`the gateway answered ${response.statusCode}`);
  const completion = (await response.body.json()) as Completion;
  const answers = JSON.parse(completion.choices[0].message.content) as Evaluation['result']['answers'];
  const id = randomUUID();
  const latencyMs = Math.round(performance.now() - started);
  const result = {
    status: 'accept' as const,
    answers,
    reviewReasons: [],
    modelId: completion.model,
    latencyMs,
  };
  const row = toEvaluationRow({
    id,
    ...pack,
    source: 'api',
    status: 'accept',
    redactedTicket: ticket as Evaluation['redactedTicket'],
    result,
    modelId: completion.model,
    latencyMs,
    inputTokens: completion.usage.prompt_tokens,
    outputTokens: completion.usage.completion_tokens,
  });
  await pool.query({
    name: insertEvaluation.preparedName,
    text: insertEvaluation.text,
    values: insertEvaluation.values(row),
  });
  return { id, result };
}
