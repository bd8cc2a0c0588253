import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, IsString, Max, Min } from 'class-validator';
import { DEFAULT_SHADOW_SAMPLE_RATE, SHADOW_RUN_STATUSES, SHADOW_STOP_REASONS } from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';
import { CostSumDto } from '../judging/cost.dto.js';
import { ShareEstimateDto } from '../reviews/quality.dto.js';

/** The largest `maxJudgments`: a cap is a budget, and ten million model calls is past any. */
export const MAX_SHADOW_JUDGMENTS = 10_000_000;

export class StartShadowRunDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "A version of the pack to judge with (any version; see GET /api/packs/{packId}/versions). Without it (or with the draft's id), the draft is frozen now into a new version that is never published and not listed among the pack's versions, so later edits do not change the run.",
  })
  @Omittable()
  @IsString()
  versionId?: string;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1,
    default: DEFAULT_SHADOW_SAMPLE_RATE,
    description:
      "The probability with which each live evaluation of the pack (source `api`, `webhook` or `mcp`) is judged again by the run's version. The draw is seeded by the run and the evaluation's ids: SHA-256 of `runId:evaluationId`, its first 48 bits as a number in [0, 1), below `sampleRate`.",
  })
  @Omittable()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'sampleRate must be a number from 0 to 1' })
  @Min(0, { message: 'sampleRate must be a number from 0 to 1' })
  @Max(1, { message: 'sampleRate must be a number from 0 to 1' })
  sampleRate?: number;

  @ApiPropertyOptional({
    minimum: 1,
    maximum: MAX_SHADOW_JUDGMENTS,
    description:
      'A cap on what the run may cost: it draws at most this many evaluations and stops by itself (`stopReason` `max_judgments`) once they are judged. Without it, the run goes on until stopped.',
  })
  @Omittable()
  @IsInt({ message: `maxJudgments must be an integer from 1 to ${MAX_SHADOW_JUDGMENTS}` })
  @Min(1, { message: `maxJudgments must be an integer from 1 to ${MAX_SHADOW_JUDGMENTS}` })
  @Max(MAX_SHADOW_JUDGMENTS, { message: `maxJudgments must be an integer from 1 to ${MAX_SHADOW_JUDGMENTS}` })
  maxJudgments?: number;
}

export class ShadowRunDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The version the run judges with (for a frozen draft, its own).',
  })
  versionId: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  sampleRate: number;

  @ApiProperty({ nullable: true, type: Number, description: 'The cap; null without one.' })
  maxJudgments: number | null;

  @ApiProperty({
    enum: SHADOW_RUN_STATUSES,
    description: '`active` while it samples and judges; `stopped` for good, its report kept.',
  })
  status: string;

  @ApiProperty({
    enum: SHADOW_STOP_REASONS,
    nullable: true,
    type: String,
    description:
      '`requested` (POST /api/shadow-runs/{id}/stop), `max_judgments` (its cap reached) or `pack_deleted`; null while active.',
  })
  stopReason: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  stoppedAt: string | null;

  @ApiProperty({
    description:
      "Whether the run's version holds the pack's draft as it is now: the web app's publish dialog shows the newest such run's report first.",
  })
  matchesDraft: boolean;
}

export class ShadowRunListDto {
  @ApiProperty({ type: [ShadowRunDto], description: 'Newest first (at most 200).' })
  items: ShadowRunDto[];
}

class ShadowStatusChangeDto {
  @ApiProperty({ enum: ['accept', 'review', 'reject'], description: 'The live status.' })
  from: string;

  @ApiProperty({ enum: ['accept', 'review', 'reject'], description: 'The shadow status.' })
  to: string;

  @ApiProperty()
  count: number;
}

class FlipCellDto {
  @ApiProperty({
    description:
      'The live answer: the choice, `true`/`false` for a boolean (probability ≥ 0.5), the score as text, or `(none)` where the live judgment gave none.',
  })
  from: string;

  @ApiProperty({ description: 'The shadow answer, written the same way.' })
  to: string;

  @ApiProperty()
  count: number;

  @ApiProperty({
    type: [String],
    description:
      'The first live evaluations (at most 20, in the order they were judged again) behind this cell: GET /api/evaluations/{id} for each.',
  })
  evaluationIds: string[];
}

class QuestionFlipsDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ description: 'Judged evaluations compared on this question.' })
  compared: number;

  @ApiProperty({ description: 'Of those, the ones whose answer differs between the versions.' })
  changed: number;

  @ApiProperty({
    type: [FlipCellDto],
    description: 'The answer-flip matrix: live answer -> shadow answer, every cell that occurred.',
  })
  flips: FlipCellDto[];
}

class ReviewShareDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Share of judged evaluations the live version sent to review.',
  })
  live: number | null;

  @ApiProperty({ nullable: true, type: Number, description: 'Share the shadow version sent to review.' })
  shadow: number | null;
}

class ShadowAgreementDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ description: 'Reviewer labels on this question among the judged evaluations.' })
  labels: number;

  @ApiProperty({ type: ShareEstimateDto, description: "The live version's agreement with the reviewers." })
  live: ShareEstimateDto;

  @ApiProperty({ type: ShareEstimateDto, description: "The shadow version's, on the same labels." })
  shadow: ShareEstimateDto;
}

class SideUsageDto {
  @ApiProperty()
  inputTokens: number;

  @ApiProperty()
  outputTokens: number;

  @ApiProperty({
    type: CostSumDto,
    description:
      'What these judgments cost at `MODEL_PRICES` (docs/cost.md); `unknownCostEvaluations` counts those whose model has no price, left out of `costUsd`.',
  })
  cost: CostSumDto;

  @ApiProperty({ nullable: true, type: Number })
  meanLatencyMs: number | null;

  @ApiProperty({ nullable: true, type: Number })
  p95LatencyMs: number | null;
}

class ShadowUsageDto {
  @ApiProperty({ type: SideUsageDto, description: 'The live evaluations that were judged again.' })
  live: SideUsageDto;

  @ApiProperty({ type: SideUsageDto, description: 'Their shadow judgments.' })
  shadow: SideUsageDto;
}

export class ShadowReportDto {
  @ApiProperty({
    description: 'Live evaluations drawn and kept (those still unjudged when a run is stopped are dropped).',
  })
  sampled: number;

  @ApiProperty({ description: 'Shadow judgments recorded, failed ones included.' })
  judged: number;

  @ApiProperty({
    description:
      'Of those, the ones whose shadow model call failed (after its retries): recorded as review, the live evaluation untouched.',
  })
  failed: number;

  @ApiProperty({ description: 'Drawn and not judged yet.' })
  pending: number;

  @ApiProperty({ type: [ShadowStatusChangeDto], description: 'live status -> shadow status counts.' })
  statusChanges: ShadowStatusChangeDto[];

  @ApiProperty({ type: [QuestionFlipsDto], description: 'Per question, the answer-flip matrix.' })
  questions: QuestionFlipsDto[];

  @ApiProperty({ type: ReviewShareDto })
  reviewShare: ReviewShareDto;

  @ApiProperty({
    type: [ShadowAgreementDto],
    description:
      "Per question with reviewer labels among the judged evaluations: each version's agreement with the reviewers on the same labels, with 95% intervals (Hájek estimate, Wilson's interval at Kish's effective size; an audit-drawn evaluation weighs 1/π). See docs/shadow-runs.md.",
  })
  agreement: ShadowAgreementDto[];

  @ApiProperty({
    type: ShadowUsageDto,
    description: 'Tokens and latency on both sides, over the judged evaluations.',
  })
  usage: ShadowUsageDto;
}

export class ShadowRunDetailDto extends ShadowRunDto {
  @ApiProperty({
    type: ShadowReportDto,
    description: 'Updated as judgments arrive; kept when the run stops.',
  })
  report: ShadowReportDto;
}
