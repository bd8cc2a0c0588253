// bench:quality part 2: one round of the synthetic world through the product itself (the API, the
// worker, SQL and the fake gateway), and the quality route's latency at scale. Part 1's estimators
// are the same functions; this part checks that the route feeds them what the world holds, and
// what the route costs at 1,000,000 evaluations.
import {
  answerCategory,
  autoDecisionAccuracy,
  predictionPoweredShares,
  REFIT_AFTER_NEW_LABELS,
  type Answer,
  type AuditedCategory,
  type AuditedEvaluation,
} from '@app/domain';
import { FakeGateway } from '../test/support/fake-gateway.js';
import { TICKET } from '../test/support/packs.js';
import { seedEvaluations } from '../test/support/seed-evaluations.js';
import { timeGets, type Timing } from './harness/load.js';
import { log } from './harness/log.js';
import { createTenant, type BenchRun } from './harness/run.js';

/** The world of part 1, for the triage pack's three questions (test/support/packs.ts). */
export interface RoundWorld {
  statedProbability: (random: () => number) => number;
  trueAgreement: (p: number) => number;
  random: () => number;
}

export interface RoundOptions {
  tickets: number;
  auditRate: number;
  confidence: number;
}

const QUESTIONS = [
  { id: 'department', values: ['billing', 'technical', 'legal'], shares: [0.55, 0.3, 0.15] },
  { id: 'abusive', values: ['false', 'true'], shares: [0.9, 0.1] },
  { id: 'complexity', values: ['1', '2', '3', '4', '5'], shares: [0.1, 0.15, 0.25, 0.3, 0.2] },
] as const;

function pick(values: readonly string[], shares: readonly number[], random: () => number): string {
  let u = random();
  for (let i = 0; i < values.length - 1; i++) {
    if (u < shares[i]) return values[i];
    u -= shares[i];
  }
  return values[values.length - 1];
}

/** A reviewer's answer of a question's category, as the labels route takes it. */
function labelAnswer(questionId: string, category: string): Answer {
  if (questionId === 'abusive') return { type: 'boolean', probability: category === 'true' ? 1 : 0 };
  if (questionId === 'complexity') return { type: 'score', score: Number(category) };
  return { type: 'choice', choice: category };
}

interface Judged {
  id: string;
  status: string;
  answers: Record<string, Answer>;
  /** The reviewer's category per question: what a label would say, drawn for every ticket. */
  truth: Record<string, string>;
}

interface EvaluationRead {
  status: string;
  result: { answers: Record<string, Answer> };
  auditProbability: number | null;
  auditSelected: boolean | null;
  calibrated?: Record<string, number> | null;
}

interface QualityRead {
  autoDecided: number;
  audited: number;
  labeled: number;
  autoDecisionAccuracy: { estimate: number | null; low: number | null; high: number | null; labels: number };
  questions: Array<{
    questionId: string;
    answers: Array<{ value: string; correctedShare: number | null; low: number | null; high: number | null }>;
  }>;
}

export interface RoundFigures {
  seconds: number;
  tickets: number;
  autoDecided: number;
  /** Live evaluations the draw selected, and those labeled (every selected one is). */
  selected: number;
  labeled: number;
  accuracy: {
    truth: number;
    estimate: number | null;
    low: number | null;
    high: number | null;
    labels: number;
    contains: boolean;
  };
  /** The corrected shares: how many intervals, how many hold the round's true share. */
  shares: { intervals: number; contained: number };
  /** Largest difference between the route's figures and the same estimators run here on the labels read back. */
  largestDifference: number;
  /** The worker's own refit: seconds from the last label until every question's map was at most one refit behind, and their labels. */
  refit: { seconds: number | null; labels: number[] };
}

/**
 * The round: judge `tickets` tickets through POST /api/judge with the audit on (`uncertainty`),
 * label every selected evaluation from the world's truth through the labels route, and read
 * GET /api/packs/{id}/quality; a worker refits the calibration maps as the labels arrive.
 */
export async function qualityRound(
  run: BenchRun,
  world: RoundWorld,
  options: RoundOptions,
): Promise<RoundFigures> {
  const started = performance.now();
  // In this process, so each call's answer can be set before it is made.
  const gateway = await new FakeGateway().start();
  run.onClose(() => gateway.close());
  const env = { MODEL_GATEWAY_URL: gateway.url, CALIBRATION_REFIT_CHECK_MS: '1000', AUDIT_SEED: '23' };
  const api = await run.api(env);
  await run.workers(1, env);
  const tenant = await createTenant(api.url);
  const { client, packId } = tenant;
  const audit = await client.put(`/api/packs/${packId}/audit`, {
    rate: options.auditRate,
    strategy: 'uncertainty',
  });
  if (audit.status !== 200) throw new Error(`audit settings: ${audit.status} ${audit.text}`);

  const judged: Judged[] = [];
  for (let i = 0; i < options.tickets; i++) {
    const p = world.statedProbability(world.random);
    const truth: Record<string, string> = {};
    const choose: Record<string, string | boolean | number> = {};
    for (const question of QUESTIONS) {
      const judge = pick(question.values, question.shares, world.random);
      choose[question.id] =
        question.id === 'abusive' ? judge === 'true' : question.id === 'complexity' ? Number(judge) : judge;
      const others = question.values.filter((value) => value !== judge);
      truth[question.id] =
        world.random() < world.trueAgreement(p) ? judge : others[Math.floor(world.random() * others.length)];
    }
    gateway.set({ kind: 'answer', confidence: p, choose });
    const response = await client.post<{ evaluationId: string; result: { status: string } }>('/api/judge', {
      packId,
      ticket: { ...TICKET, externalId: `Q-${i}` },
    });
    if (response.status !== 200) throw new Error(`judge: ${response.status} ${response.text}`);
    judged.push({ id: response.body.evaluationId, status: response.body.result.status, answers: {}, truth });
    if ((i + 1) % 500 === 0) log(`round: judged ${i + 1} of ${options.tickets}`);
  }

  // What the evaluation reads say (π, selected), then a label per question on every selected one.
  const evaluations: AuditedEvaluation[] = [];
  const categories = new Map<string, AuditedCategory[]>(QUESTIONS.map((q) => [q.id, []]));
  let selected = 0;
  for (const item of judged) {
    const read = (await client.get<EvaluationRead>(`/api/evaluations/${item.id}`)).body;
    item.answers = read.result.answers;
    if (!read.auditSelected) continue;
    selected++;
    for (const question of QUESTIONS) {
      const answer = labelAnswer(question.id, item.truth[question.id]);
      const labeled = await client.post(`/api/evaluations/${item.id}/labels`, {
        questionId: question.id,
        answer,
      });
      if (labeled.status !== 201) throw new Error(`label: ${labeled.status} ${labeled.text}`);
      categories.get(question.id)!.push({
        judge: answerCategory(item.answers[question.id]),
        label: item.truth[question.id],
        inclusionProbability: read.auditProbability!,
      });
    }
    if (read.status === 'accept' || read.status === 'reject')
      evaluations.push({
        inclusionProbability: read.auditProbability!,
        labeled: QUESTIONS.map((question) => ({
          model: item.answers[question.id],
          label: labelAnswer(question.id, item.truth[question.id]),
        })),
      });
  }
  const labeledAt = performance.now();
  log(`round: ${selected} selected and labeled`);

  const quality = (
    await client.get<QualityRead>(`/api/packs/${packId}/quality?confidence=${options.confidence}`)
  ).body;
  const automatic = judged.filter((item) => item.status === 'accept' || item.status === 'reject');
  const agreesEverywhere = (item: Judged) =>
    QUESTIONS.every((question) => answerCategory(item.answers[question.id]) === item.truth[question.id]);
  const truth = automatic.filter(agreesEverywhere).length / automatic.length;
  const accuracy = quality.autoDecisionAccuracy;

  // The same estimators here, on the labels as read back: the route must give the same figures.
  const local = autoDecisionAccuracy(evaluations, options.confidence);
  let largestDifference = Math.max(
    ...(['estimate', 'low', 'high'] as const).map((key) =>
      Math.abs((local[key] ?? NaN) - (accuracy[key] ?? NaN)),
    ),
  );
  let intervals = 0;
  let contained = 0;
  for (const question of quality.questions) {
    const judgeCounts = new Map<string, number>();
    for (const item of judged) {
      const category = answerCategory(item.answers[question.questionId]);
      judgeCounts.set(category, (judgeCounts.get(category) ?? 0) + 1);
    }
    const shares = predictionPoweredShares(
      judgeCounts,
      categories.get(question.questionId)!,
      options.confidence,
    );
    for (const answer of question.answers) {
      const mine = shares.find((share) => share.value === answer.value);
      for (const key of ['correctedShare', 'low', 'high'] as const)
        largestDifference = Math.max(
          largestDifference,
          Math.abs((mine?.[key] ?? NaN) - (answer[key] ?? NaN)),
        );
      if (answer.low === null || answer.high === null) continue;
      intervals++;
      const share =
        judged.filter((item) => item.truth[question.questionId] === answer.value).length / judged.length;
      if (answer.low <= share && share <= answer.high) contained++;
    }
  }

  // The worker refits once a question has REFIT_AFTER_NEW_LABELS new labels (checked every second
  // here): wait until every question's map holds all but fewer than that many of the labels given.
  const refit = await waitForMaps(client, packId, selected - REFIT_AFTER_NEW_LABELS + 1, 120_000);
  return {
    seconds: (performance.now() - started) / 1000,
    tickets: judged.length,
    autoDecided: quality.autoDecided,
    selected,
    labeled: quality.labeled,
    accuracy: {
      truth,
      ...accuracy,
      contains: accuracy.low !== null && accuracy.low <= truth && truth <= accuracy.high!,
    },
    shares: { intervals, contained },
    largestDifference,
    refit: { seconds: refit ? (refit.at - labeledAt) / 1000 : null, labels: refit?.labels ?? [] },
  };
}

async function waitForMaps(
  client: { get: <T>(path: string) => Promise<{ body: T }> },
  packId: string,
  labels: number,
  timeoutMs: number,
): Promise<{ at: number; labels: number[] } | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const report = (
      await client.get<{ questions: Array<{ calibrationMap: { labels: number } | null }> }>(
        `/api/packs/${packId}/calibration`,
      )
    ).body;
    if (report.questions.every((question) => (question.calibrationMap?.labels ?? 0) >= labels))
      return {
        at: performance.now(),
        labels: report.questions.map((question) => question.calibrationMap!.labels),
      };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}

export interface RouteFigures {
  evaluations: number;
  labeledAudits: number;
  seedSeconds: number;
  timing: Timing;
}

/**
 * GET /api/packs/{id}/quality over `evaluations` live evaluations in its 30-day window, of which
 * `auditShare` were drawn and selected and `labeledAudits` of those labeled on two questions: the
 * route reads the per-day counters and the labeled draws, so its cost follows the labels.
 */
export async function qualityRouteAtScale(
  run: BenchRun,
  { evaluations, labeledAudits, requests }: { evaluations: number; labeledAudits: number; requests: number },
): Promise<RouteFigures> {
  const api = await run.api({ MODEL_GATEWAY_URL: '' });
  const tenant = await createTenant(api.url);
  const db = await run.postgres();
  await db.query('SET synchronous_commit = off');
  const seedStarted = performance.now();
  await seedEvaluations(db, { packId: tenant.packId, rows: evaluations, days: 29 }, (n) =>
    log(`route: seeded ${n} rows`),
  );
  // 5% drawn and selected with π = 0.05; the first `labeledAudits` of them labeled by the owner.
  await db.query(
    `UPDATE evaluations SET audit_probability = 0.05, audit_selected = (hashtext(id::text) % 20 = 0)
      WHERE pack_id = $1`,
    [tenant.packId],
  );
  await db.query(
    `WITH chosen AS (
       SELECT id, user_id, result FROM evaluations
        WHERE pack_id = $1 AND audit_selected ORDER BY created_at DESC LIMIT $2),
     labeled AS (
       INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, agreement)
       SELECT gen_random_uuid(), chosen.user_id, chosen.id, q.question, chosen.result -> 'answers' -> q.question, true
         FROM chosen, (VALUES ('department'), ('abusive')) AS q(question)
       RETURNING evaluation_id)
     UPDATE evaluations SET labeled = true WHERE id IN (SELECT evaluation_id FROM labeled)`,
    [tenant.packId, labeledAudits],
  );
  await db.query('VACUUM ANALYZE evaluations');
  await db.query('VACUUM ANALYZE labels');
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const timing = await timeGets(
    `${api.url}/api/packs/${tenant.packId}/quality`,
    { 'x-api-key': tenant.apiKey },
    { requests },
  );
  log(`route: p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms`);
  return { evaluations, labeledAudits, seedSeconds, timing };
}
