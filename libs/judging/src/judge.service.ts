import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  calibratorOf,
  checkPackDocument,
  ConflictError,
  decide,
  isAuditedSource,
  modelCost,
  NotFoundError,
  redactTicket,
  selectedProbabilities,
  type AuditSettings,
  type Calibrate,
  type EvaluationSource,
  type FailureKind,
  type JudgmentResult,
  type ModelPrices,
  type PackDocument,
  type Ticket,
  usesCalibration,
} from '@app/domain';
import {
  CalibrationMapCache,
  EvaluationRepository,
  LiveVersionCache,
  type EvaluationEntity,
  type NewEvaluation,
} from '@app/persistence';
import { Metrics } from '@app/metrics';
import { AuditSampler } from './audit-sampler.js';
import { MODEL_GATEWAY, type GatewayOutcome, type ModelGateway } from './gateway/model-gateway.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';

/** Largest ticket text (all text fields after redaction) sent to a model: about 8k tokens. */
export const MAX_TICKET_CHARS = 32_000;

export interface JudgeVersionInput {
  userId: string;
  packId: string;
  packVersionId: string;
  document: PackDocument;
  ticket: Ticket;
  source: EvaluationSource;
  /**
   * The pack's audit settings, when the caller read them with the live version; left out, a live
   * source's are looked up (cached) and other sources are not drawn.
   */
  audit?: AuditSettings;
  /** Where the model call waits for a free slot (SimulationRunner's); left out, it is made at once. */
  modelCalls?: ModelCallSlots;
}

/** Runs `call` once one of a bounded number of slots is free (a `p-limit` limit function fits). */
export type ModelCallSlots = <T>(call: () => Promise<T>) => Promise<T>;

export interface ShadowJudgmentInput {
  userId: string;
  packId: string;
  /** The shadow run's version. */
  packVersionId: string;
  document: PackDocument;
  /** The live evaluation's ticket as stored: redacted with the rules of the day it was stored. */
  ticket: Ticket;
}

function ticketText(ticket: Ticket): string {
  return [
    ticket.subject,
    ticket.customerMessage,
    ...(ticket.messages ?? []).map((message) => message.text),
  ].join('\n');
}

/**
 * Judges tickets: the same code for the judge route, MCP, simulations and inbound webhooks.
 * The ticket is redacted before anything else sees it; every outcome, failures included, is
 * stored as an evaluation.
 */
@Injectable()
export class JudgeService {
  /** Checks by document object: cached live versions and simulation documents are reused objects. */
  private readonly checkedDocuments = new WeakMap<PackDocument, ReturnType<typeof checkPackDocument>>();
  /** MODEL_PRICES: what each model's tokens cost (docs/cost.md). */
  private readonly prices: ModelPrices;

  constructor(
    private readonly liveVersions: LiveVersionCache,
    private readonly evaluations: EvaluationRepository,
    private readonly idempotency: IdempotencyService,
    @Inject(MODEL_GATEWAY) private readonly gateway: ModelGateway,
    private readonly metrics: Metrics,
    private readonly audits: AuditSampler,
    private readonly calibrationMaps: CalibrationMapCache,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prices = config.modelPrices;
  }

  /** Judges against the pack's live version; with a key, at most once per (user, surface, key). */
  async judgeLive(
    userId: string,
    packId: string,
    ticket: Ticket,
    source: EvaluationSource,
    idempotencyKey?: string,
  ): Promise<EvaluationEntity> {
    const run = async () => {
      const live = await this.liveVersions.find(userId, packId);
      if (!live.found) {
        throw live.reason === 'pack_not_found'
          ? new NotFoundError('pack not found')
          : new ConflictError('pack has no published version');
      }
      return this.judgeVersion({
        userId,
        packId,
        packVersionId: live.versionId,
        document: live.document,
        ticket,
        source,
        audit: live.audit,
      });
    };
    if (!idempotencyKey) return run();
    let evaluation: EvaluationEntity | undefined;
    // The judge route and the MCP tool keep their keys apart: the same string on both never collides.
    const surface = source === 'mcp' ? 'mcp' : 'judge';
    const { resultId } = await this.idempotency.run(userId, surface, idempotencyKey, async () => {
      evaluation = await run();
      return { resultId: evaluation.id, keep: !isRetryable(evaluation.result) };
    });
    return evaluation ?? (await this.evaluations.findById(userId, resultId))!;
  }

  /** Judges against a given version and stores the evaluation. */
  async judgeVersion(input: JudgeVersionInput): Promise<EvaluationEntity> {
    return this.evaluations.insert(await this.evaluate(input));
  }

  /**
   * Judges against a given version without storing: redaction, checks, one model call and the
   * decision. Callers that store differently (simulations, exactly once per ticket) start here.
   */
  async evaluate(input: JudgeVersionInput): Promise<NewEvaluation> {
    const ticket = redactTicket(input.ticket);
    const call = () => this.callModel(input.document, ticket);
    const outcome = await (input.modelCalls ? input.modelCalls(call) : call());
    const audit = await this.auditSettings(input);
    const calibrate = outcome.ok ? await this.calibrate(input, audit) : undefined;
    const result = judgmentResult(input.document, outcome, calibrate);
    this.countJudgment(input.source, result.status, outcome);
    const usage = result.usage;
    const candidate = {
      ...input,
      selectedProbabilities: selectedProbabilities(result.answers),
      failed: !outcome.ok,
    };
    const draw = await this.audits.draw(candidate, audit, calibrate);
    return {
      id: randomUUID(),
      userId: input.userId,
      packId: input.packId,
      packVersionId: input.packVersionId,
      source: input.source,
      status: result.status,
      redactedTicket: ticket,
      result,
      modelId: result.modelId,
      latencyMs: result.latencyMs,
      inputTokens: usage?.inputTokens ?? 0,
      outputTokens: usage?.outputTokens ?? 0,
      costUsd: modelCost(this.prices, result.modelId, usage),
      ...(draw
        ? {
            auditProbability: draw.probability,
            auditSelected: draw.selected,
            auditUncertainty: draw.uncertainty,
          }
        : {}),
    };
  }

  /**
   * Judges a ticket as stored with another version for a shadow run (docs/shadow-runs.md). It is
   * redacted again first: it was stored under the rules of its day, and today's may catch more
   * (redaction is idempotent). Then the checks, the model call and the decision as `evaluate` makes
   * them, calibrated where the version's questions opt in, and costed at MODEL_PRICES, but with no
   * audit draw and nothing stored.
   * Counted in judgments_total with source `shadow`.
   */
  async judgeShadow(
    input: ShadowJudgmentInput,
  ): Promise<{ result: JudgmentResult; failure: FailureKind | null; costUsd: number | null }> {
    const outcome = await this.callModel(input.document, redactTicket(input.ticket));
    const calibrate = outcome.ok ? await this.calibrate(input, null) : undefined;
    const result = judgmentResult(input.document, outcome, calibrate);
    this.countJudgment('shadow', result.status, outcome);
    return {
      result,
      failure: outcome.ok ? null : outcome.kind,
      costUsd: modelCost(this.prices, result.modelId, result.usage),
    };
  }

  /**
   * The audit settings a judgment is drawn with: the caller's, else (live sources only, as inbound
   * events judged by the worker) the pack's from the live-version cache; null for the playground and
   * simulations, and for a pack deleted meanwhile.
   */
  private async auditSettings(input: JudgeVersionInput): Promise<AuditSettings | null> {
    if (!isAuditedSource(input.source)) return null;
    if (input.audit) return input.audit;
    const live = await this.liveVersions.find(input.userId, input.packId);
    return live.found ? live.audit : null;
  }

  /**
   * The maps of the version's questions, only when something uses them: a question that opts in to
   * `review.useCalibrated`, or the audit's `uncertainty` draw, whose u takes calibrated probabilities
   * (docs/quality.md, "The audit draw"). A pack with neither reads nothing more than before. Through
   * CalibrationMapCache, so a version's maps are read once per cache lifetime, not per judgment.
   */
  private async calibrate(
    input: Pick<JudgeVersionInput, 'userId' | 'packId' | 'packVersionId' | 'document'>,
    audit: AuditSettings | null,
  ): Promise<Calibrate | undefined> {
    const drawsByUncertainty = audit !== null && audit.rate > 0 && audit.strategy === 'uncertainty';
    if (!usesCalibration(input.document) && !drawsByUncertainty) return undefined;
    const maps = await this.calibrationMaps.find(
      input.userId,
      input.packId,
      input.packVersionId,
      input.document,
    );
    return calibratorOf(maps);
  }

  /**
   * Each document object is checked once: the live-version cache and the simulation runner hand out
   * the same object for every judgment of a version, which keeps the full schema check (and any
   * serialization of the document) off the hot path.
   */
  private checkDocument(document: PackDocument): ReturnType<typeof checkPackDocument> {
    let check = this.checkedDocuments.get(document);
    if (!check) {
      check = checkPackDocument(document);
      this.checkedDocuments.set(document, check);
    }
    return check;
  }

  /**
   * judgments_total for every judgment; model_call_duration_seconds when the gateway was called for
   * a judgment other than a shadow run's, so a failing candidate version never reads as the gateway's
   * health (docs/operations.md).
   */
  private countJudgment(source: EvaluationSource | 'shadow', status: string, outcome: GatewayOutcome): void {
    const failure = outcome.ok ? 'none' : outcome.kind;
    this.metrics.judgments.inc({ source, status, failure });
    if (source !== 'shadow' && failure !== 'invalid_pack' && failure !== 'invalid_ticket')
      this.metrics.modelCalls.observe({ outcome: outcome.ok ? 'ok' : failure }, outcome.latencyMs / 1000);
  }

  private async callModel(document: PackDocument, ticket: Ticket): Promise<GatewayOutcome> {
    const failure = (kind: 'invalid_pack' | 'invalid_ticket', detail: string): GatewayOutcome => ({
      ok: false,
      kind,
      detail,
      modelId: this.gateway.defaultModelId,
      latencyMs: 0,
    });
    const check = this.checkDocument(document);
    if (!check.ok) return failure('invalid_pack', 'the published document does not validate');
    if (!check.document.questions.length)
      return failure('invalid_pack', 'the published version has no questions');
    const text = ticketText(ticket);
    if (!text.trim()) return failure('invalid_ticket', 'the ticket has no text');
    if (text.length > MAX_TICKET_CHARS)
      return failure('invalid_ticket', `the ticket is longer than ${MAX_TICKET_CHARS} characters`);
    return this.gateway.judge({ document: check.document, ticket });
  }
}

/** The stored result of a model outcome: the decision's status and reasons beside the answers. */
function judgmentResult(
  document: PackDocument,
  outcome: GatewayOutcome,
  calibrate: Calibrate | undefined,
): JudgmentResult {
  const decision = decide(
    document,
    outcome.ok ? outcome.answers : {},
    outcome.ok ? undefined : outcome.kind,
    calibrate,
  );
  const usage = outcome.ok ? outcome.usage : undefined;
  return {
    status: decision.status,
    answers: outcome.ok ? outcome.answers : {},
    reviewReasons: decision.reviewReasons,
    modelId: outcome.modelId,
    latencyMs: outcome.latencyMs,
    ...(decision.derived ? { derived: decision.derived } : {}),
    ...(usage ? { usage } : {}),
  };
}

/**
 * The model could not be reached (timeout, connection error, 429 or 5xx): worth another try later.
 * The worker retries such tickets with its jobs' backoff and records the failure only on the last.
 */
export function isModelUnavailable(result: JudgmentResult): boolean {
  return result.reviewReasons.includes('gateway_unavailable');
}

/** Gateway failures leave the idempotency key unstored, so sending it again runs the call again. */
export function isRetryable(result: JudgmentResult): boolean {
  return (
    result.reviewReasons.includes('gateway_auth') || result.reviewReasons.includes('gateway_unavailable')
  );
}
