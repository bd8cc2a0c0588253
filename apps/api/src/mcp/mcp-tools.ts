import { Injectable } from '@nestjs/common';
import type { Principal } from '@app/auth';
import { DatasetService } from '@app/datasets';
import type { Permission } from '@app/domain';
import { EvaluationService, JudgeService, toJudgeResponse } from '@app/judging';
import { PackService } from '@app/packs';
import { CalibrationService, LabelService, QualityService, ReviewService, StatsService } from '@app/reviews';
import { ShadowService } from '@app/shadow';
import { SimulationService } from '@app/simulations';
import { DatasetListDto } from '../datasets/datasets.dto.js';
import { EvaluationDto, JudgeResponseDto, LabelDto } from '../judging/judgment.dto.js';
import { PackComparisonDto, PackDto } from '../packs/packs.dto.js';
import { CalibrationDto, ReviewPageDto } from '../reviews/reviews.dto.js';
import { StatsDto } from '../reviews/stats.dto.js';
import { QualityDto } from '../reviews/quality.dto.js';
import { ShadowRunDetailDto, ShadowRunDto } from '../shadow/shadow.dto.js';
import { SimulationDto, SimulationIdDto, SimulationListDto } from '../simulations/simulations.dto.js';
import {
  ComparePackVersionsArgs,
  DeleteLabelArgs,
  EvaluationIdArgs,
  GetCalibrationArgs,
  GetQualityArgs,
  JudgeTicketArgs,
  LabelDeletedDto,
  LabelEvaluationArgs,
  GetStatsArgs,
  ListReviewsArgs,
  NoArgs,
  PackIdArgs,
  PackListDto,
  ShadowRunIdArgs,
  SimulationIdArgs,
  StartShadowRunArgs,
  StartSimulationArgs,
} from './mcp-tool-args.dto.js';

type Dto = abstract new (...args: never[]) => object;

/** One MCP tool: the REST route it mirrors gives its permission, argument names and answer. */
export interface McpTool<A extends object = object> {
  name: string;
  title: string;
  description: string;
  /** The permission of the REST route; the token's scopes must hold it. */
  permission: Permission;
  /** Validated with the REST validation pipe; its OpenAPI schema is the tool's input schema. */
  args: new () => A;
  /** The REST answer's DTO; its OpenAPI schema is the tool's output schema. */
  output: Dto;
  readOnly: boolean;
  run(principal: Principal, args: A): Promise<object>;
}

const tool = <A extends object>(definition: McpTool<A>): McpTool => definition;

/**
 * The MCP tools. Each calls the same service as its REST route, with the same permission, and
 * answers the same JSON (a list that REST answers as an array comes wrapped in `items`).
 */
@Injectable()
export class McpTools {
  readonly all: readonly McpTool[];

  constructor(
    packs: PackService,
    judge: JudgeService,
    evaluations: EvaluationService,
    reviews: ReviewService,
    labels: LabelService,
    stats: StatsService,
    calibration: CalibrationService,
    quality: QualityService,
    datasets: DatasetService,
    simulations: SimulationService,
    shadows: ShadowService,
  ) {
    this.all = [
      tool({
        name: 'list_packs',
        title: 'List question packs',
        description:
          'Lists your question packs, newest first: id, name, liveVersionId (null until published), questionCount and unpublishedChanges. Use a pack id with get_pack or judge_ticket.',
        permission: 'packs:read',
        args: NoArgs,
        output: PackListDto,
        readOnly: true,
        run: async (p) => ({ items: await packs.list(p.userId) }),
      }),
      tool<PackIdArgs>({
        name: 'get_pack',
        title: 'Read a pack',
        description:
          'Reads one pack: its draft document (questions with their options and review thresholds), the live document used for judging (null when unpublished), and both version ids.',
        permission: 'packs:read',
        args: PackIdArgs,
        output: PackDto,
        readOnly: true,
        run: (p, a) => packs.get(p.userId, a.packId),
      }),
      tool<ComparePackVersionsArgs>({
        name: 'compare_pack_versions',
        title: 'Compare two versions of a pack',
        description:
          'Lists the question ids added, removed and changed from version `from` to version `to` of one pack (for example liveVersionId to draftVersionId, to see unpublished changes).',
        permission: 'packs:read',
        args: ComparePackVersionsArgs,
        output: PackComparisonDto,
        readOnly: true,
        run: (p, a) => packs.compare(p.userId, a.packId, a.from, a.to),
      }),
      tool<JudgeTicketArgs>({
        name: 'judge_ticket',
        title: 'Judge a ticket',
        description:
          "Judges one support ticket against the pack's published version with the language model and stores the evaluation (source mcp). Returns evaluationId and the result: status accept, review or reject, an answer per question, and reviewReasons. A model failure is not an error: status is review and reviewReasons names it. Pass idempotencyKey to make a retry safe.",
        permission: 'judgments:run',
        args: JudgeTicketArgs,
        output: JudgeResponseDto,
        readOnly: false,
        run: async (p, a) =>
          toJudgeResponse(await judge.judgeLive(p.userId, a.packId, a.ticket, 'mcp', a.idempotencyKey)),
      }),
      tool<EvaluationIdArgs>({
        name: 'get_evaluation',
        title: 'Read an evaluation',
        description:
          'Reads one stored evaluation: the redacted ticket, the full result, the pack version used, token usage and the labels reviewers attached.',
        permission: 'judgments:read',
        args: EvaluationIdArgs,
        output: EvaluationDto,
        readOnly: true,
        run: (p, a) => evaluations.get(p.userId, a.evaluationId),
      }),
      tool<ListReviewsArgs>({
        name: 'list_reviews',
        title: 'List the review queue',
        description:
          'Lists evaluations with status review, newest first, 50 a page, with their result and redacted ticket, and the total for the filters (up to 1,000; totalCapped when more). Filter by packId, questionId (evaluations answering that question), labeled ("true" or "false") and source (one or more of playground, api, mcp, webhook, simulation; live traffic is api, webhook and mcp); pass nextCursor back as cursor for the next page. queue "audit" lists the automatic decisions selected for audit instead; order "value" puts first the items whose label is worth most (the judge\'s uncertainty on its least certain question, divided by 1 + the labels that question already has).',
        permission: 'judgments:read',
        args: ListReviewsArgs,
        output: ReviewPageDto,
        readOnly: true,
        run: (p, { cursor, labeled, source, queue, order, ...filter }) =>
          reviews.list(
            p.userId,
            { ...filter, sources: source, labeled: labeled === undefined ? undefined : labeled === 'true' },
            { queue, order, cursor },
          ),
      }),
      tool<LabelEvaluationArgs>({
        name: 'label_evaluation',
        title: 'Label an evaluation',
        description:
          "Records a reviewer's answer to one question of an evaluation (replacing an earlier label for it) and whether it agrees with the model. The answer must fit the question: {type: 'choice', choice}, {type: 'boolean', probability: 0 or 1} or {type: 'score', score}.",
        permission: 'labels:write',
        args: LabelEvaluationArgs,
        output: LabelDto,
        readOnly: false,
        run: async (p, { evaluationId, ...input }) => (await labels.put(p.userId, evaluationId, input)).label,
      }),
      tool<DeleteLabelArgs>({
        name: 'delete_label',
        title: 'Delete a label',
        description: 'Deletes one label of an evaluation.',
        permission: 'labels:write',
        args: DeleteLabelArgs,
        output: LabelDeletedDto,
        readOnly: false,
        run: async (p, a) => {
          await labels.delete(p.userId, a.evaluationId, a.labelId);
          return { evaluationId: a.evaluationId, labelId: a.labelId, deleted: true };
        },
      }),
      tool<GetStatsArgs>({
        name: 'get_stats',
        title: 'Read statistics',
        description:
          'Today\'s evaluations by status, average latency, tokens, a 30-day daily series, the review backlog, recent simulations and recent webhook delivery failures. source (for example ["api", "webhook", "mcp"], live traffic) counts only those sources\' evaluations.',
        permission: 'judgments:read',
        args: GetStatsArgs,
        output: StatsDto,
        readOnly: true,
        run: (p, a) => stats.forUser(p.userId, new Date(), a.source),
      }),
      tool({
        name: 'list_datasets',
        title: 'List datasets',
        description:
          'Lists your datasets (sets of redacted tickets) with their ticket counts; use an id with start_simulation.',
        permission: 'packs:read',
        args: NoArgs,
        output: DatasetListDto,
        readOnly: true,
        run: async (p) => ({ items: await datasets.list(p.userId) }),
      }),
      tool<StartSimulationArgs>({
        name: 'start_simulation',
        title: 'Start a simulation',
        description:
          "Judges every ticket of a dataset with a pack's published version (or packVersionId, for example a draft) in the background. Returns the simulation id at once; poll get_simulation for progress and results.",
        permission: 'simulations:run',
        args: StartSimulationArgs,
        output: SimulationIdDto,
        readOnly: false,
        run: (p, a) => simulations.start(p.userId, a),
      }),
      tool<SimulationIdArgs>({
        name: 'get_simulation',
        title: 'Read a simulation',
        description: 'Reads one simulation: status, progress and, when done, the counts by outcome.',
        permission: 'simulations:run',
        args: SimulationIdArgs,
        output: SimulationDto,
        readOnly: true,
        run: (p, a) => simulations.get(p.userId, a.simulationId),
      }),
      tool({
        name: 'list_simulations',
        title: 'List simulations',
        description: 'Lists your simulations, newest first, with their dataset and pack names and status.',
        permission: 'simulations:run',
        args: NoArgs,
        output: SimulationListDto,
        readOnly: true,
        run: async (p) => ({ items: await simulations.list(p.userId) }),
      }),
      tool<StartShadowRunArgs>({
        name: 'start_shadow_run',
        title: 'Start a shadow run',
        description:
          "Judges a sample of a pack's live traffic again with another version (versionId; without it, the draft frozen now), in the background: each live evaluation is drawn with probability sampleRate (default 0.1), up to maxJudgments if given. Nothing live changes. One active run per pack. Poll get_shadow_run for the report.",
        permission: 'packs:write',
        args: StartShadowRunArgs,
        output: ShadowRunDto,
        readOnly: false,
        run: (p, { packId, ...a }) => shadows.start(p.userId, packId, a),
      }),
      tool<ShadowRunIdArgs>({
        name: 'get_shadow_run',
        title: 'Read a shadow run',
        description:
          "Reads a shadow run and its report: judged, statusChanges (live -> shadow), per question the answer-flip matrix with example evaluation ids, the review share on both sides, each version's agreement with reviewer labels with intervals, tokens and latency.",
        permission: 'packs:read',
        args: ShadowRunIdArgs,
        output: ShadowRunDetailDto,
        readOnly: true,
        run: (p, a) => shadows.get(p.userId, a.shadowRunId),
      }),
      tool<GetCalibrationArgs>({
        name: 'get_calibration',
        title: 'Calibrate review thresholds',
        description:
          "For each question of a pack version (the live one unless versionId is given): labeled count, agreement with reviewers, Cohen's kappa, the review threshold that reaches targetAgreement (default 0.95) as a point estimate, and from the audit sample the expected calibration error raw and calibrated and guaranteedMinSelectedProbability, the lowest threshold that reaches targetAgreement with probability at least 1 - delta (default 0.1), or null with auditLabelsNeeded.",
        permission: 'judgments:read',
        args: GetCalibrationArgs,
        output: CalibrationDto,
        readOnly: true,
        run: (p, a) =>
          calibration.calibrate(p.userId, a.packId, a.versionId, a.targetAgreement ?? 0.95, a.delta ?? 0.1),
      }),
      tool<GetQualityArgs>({
        name: 'get_quality',
        title: 'How often the judge is right',
        description:
          "For a pack version's live traffic in a window of UTC days (the live version and the last 30 days unless given): how often reviewers agree with the automatic decisions (autoDecisionAccuracy), and per question the agreement and each answer's share, raw (judgeShare) and corrected for the judge's errors (correctedShare), each with an interval at `confidence` (default 0.95) and the number of audit labels behind it; null where the labels support no estimate.",
        permission: 'judgments:read',
        args: GetQualityArgs,
        output: QualityDto,
        readOnly: true,
        run: (p, a) => quality.estimate(p.userId, a.packId, { ...a, confidence: a.confidence ?? 0.95 }),
      }),
    ];
  }
}
