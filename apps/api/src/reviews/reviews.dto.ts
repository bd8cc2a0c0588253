import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import type { EvaluationSource, Ticket } from '@app/domain';
import type { ReviewOrder } from '@app/reviews';
import type { ReviewQueue } from '@app/persistence';
import { AnswerDto, EvaluationSummaryWithQualityDto, JudgmentResultDto } from '../judging/judgment.dto.js';
import { CalibrationUsedDto } from '../judging/calibrated.dto.js';
import { TicketDto } from '../judging/ticket.dto.js';
import { Omittable } from '../errors/validation-rules.js';
import { SourceFilter } from './source-filter.js';

const REVIEW_QUEUES: ReviewQueue[] = ['review', 'audit'];
const REVIEW_ORDERS: ReviewOrder[] = ['newest', 'value'];

export class ListReviewsQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsString()
  packId?: string;

  @ApiPropertyOptional({ description: 'Only evaluations whose `result.answers` has this question id.' })
  @Omittable()
  @IsString()
  @MaxLength(64)
  questionId?: string;

  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: at least one label; `false`: none.' })
  @Omittable()
  @IsIn(['true', 'false'], { message: 'labeled must be true or false' })
  labeled?: 'true' | 'false';

  @SourceFilter('Only evaluations of these sources.')
  source?: EvaluationSource[];

  @ApiPropertyOptional({
    enum: REVIEW_QUEUES,
    default: 'review',
    description:
      '`review`: evaluations in `review` (the default). `audit`: the automatic decisions (`accept`, `reject`) the audit draw selected.',
  })
  @Omittable()
  @IsIn(REVIEW_QUEUES, { message: `queue must be one of: ${REVIEW_QUEUES.join(', ')}` })
  queue?: ReviewQueue;

  @ApiPropertyOptional({
    enum: REVIEW_ORDERS,
    default: 'newest',
    description:
      '`newest`: newest first (the default). `value`: the expected value of a label first, v = (1 − p_min) / (1 + labels of that question in the pack version); see the operation.',
  })
  @Omittable()
  @IsIn(REVIEW_ORDERS, { message: `order must be one of: ${REVIEW_ORDERS.join(', ')}` })
  order?: ReviewOrder;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @Omittable()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

export class ReviewItemDto extends EvaluationSummaryWithQualityDto {
  @ApiProperty({ type: JudgmentResultDto })
  result: JudgmentResultDto;

  @ApiProperty({ type: TicketDto })
  redactedTicket: Ticket;
}

export class ReviewPageDto {
  @ApiProperty({ type: [ReviewItemDto] })
  items: ReviewItemDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;

  @ApiProperty({
    type: 'integer',
    description:
      'Evaluations in the queue for these filters, all pages together, counted up to 1,000 (a bounded cost, whatever the queue holds): exact when `totalCapped` is false.',
  })
  total: number;

  @ApiProperty({
    description:
      'True when the queue holds more than `total` evaluations (the count stopped at 1,000): show it as "1,000+".',
  })
  totalCapped: boolean;
}

export class CreateLabelDto {
  @ApiProperty({ example: 'department' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  questionId: string;

  @ApiProperty({
    type: AnswerDto,
    description:
      "Must fit the question in the evaluation's pack version: same type; a choice among the options; a score within [min, max]; a boolean with probability 0 or 1. No other fields: `probabilities`, when given (choice and score only), is checked as in a model's answer (numbers from 0 to 1 keyed by the question's values, the choice included) and stored.",
    example: { type: 'choice', choice: 'billing' },
  })
  @IsDefined()
  @IsObject()
  answer: Record<string, unknown>;

  @ApiPropertyOptional({ maxLength: 2000 })
  @Omittable()
  @IsString()
  @MaxLength(2000)
  note?: string;
}

export class CalibrationQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A version of this pack; defaults to the live version.',
  })
  @Omittable()
  @IsString()
  versionId?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, default: 0.95 })
  @Omittable()
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  @Max(1)
  targetAgreement?: number;

  @ApiPropertyOptional({
    minimum: 0.001,
    maximum: 0.5,
    default: 0.1,
    description:
      'The risk δ the guaranteed threshold may take: with probability at least 1 − δ, reviewers agree with at least `targetAgreement` of the answers at or above it.',
  })
  @Omittable()
  @Type(() => Number)
  @IsNumber()
  @Min(0.001)
  @Max(0.5)
  delta?: number;
}

class ReliabilityBinDto {
  @ApiProperty()
  from: number;

  @ApiProperty()
  to: number;

  @ApiProperty()
  count: number;

  @ApiProperty({ nullable: true, type: Number })
  agreement: number | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      "The mean calibrated probability of the bin's labeled answers, from the question's calibration map (`calibrationMap`): what the map says their agreement is, beside the observed `agreement`. Null for an empty bin or while the question has no map.",
  })
  calibrated: number | null;
}

class ConfusionDto {
  @ApiProperty({
    type: [String],
    description: 'Answer categories (choice value, true/false, score, or `(none)` for a failed judgment).',
  })
  categories: string[];

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'integer' } },
    description: '`matrix[model][label]` counts.',
  })
  matrix: number[][];
}

class CalibrationPointDto {
  @ApiProperty({ minimum: 0, maximum: 1 })
  selectedProbability: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  calibrated: number;
}

class CalibrationMapDto extends CalibrationUsedDto {
  @ApiProperty({
    type: [CalibrationPointDto],
    description: 'Ordered by selected probability; calibrated never falls.',
  })
  points: CalibrationPointDto[];
}

class CalibrationErrorsDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: "ECE of the judge's own selected probabilities.",
  })
  raw: number | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'ECE of the calibrated probabilities, each from a map fitted without it (5-fold cross-fitting).',
  })
  calibrated: number | null;

  @ApiProperty()
  labels: number;
}

class QuestionCalibrationDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ enum: ['choice', 'boolean', 'score'] })
  type: string;

  @ApiProperty()
  labeled: number;

  @ApiProperty({ nullable: true, type: Number })
  agreementRate: number | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description: "Cohen's kappa (choice and boolean): (p_o - p_e) / (1 - p_e).",
  })
  kappa: number | null;

  @ApiProperty({ type: ConfusionDto })
  confusion: ConfusionDto;

  @ApiProperty({
    type: [ReliabilityBinDto],
    description: 'Model selected probability in 10 bins vs observed agreement.',
  })
  reliability: ReliabilityBinDto[];

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'A point estimate: the lowest threshold at which the labeled answers at or above it agree at least `targetAgreement`, with no allowance for chance. Prefer `guaranteedMinSelectedProbability`.',
  })
  suggestedMinSelectedProbability: number | null;

  @ApiProperty({
    minimum: 0,
    description:
      'Labels still needed before the suggestion is worth applying: 30 minus `labeled`, at least 0 (docs/reviews.md). The web app offers "Use suggested threshold" only at 0. The suggestion itself is given from any number of labels.',
  })
  labelsNeededForSuggestion: number;

  @ApiProperty({
    nullable: true,
    type: Number,
    description: "Share of this version's evaluations whose selected probability is below the suggestion.",
  })
  reviewShareAtSuggested: number | null;

  @ApiProperty({
    type: CalibrationErrorsDto,
    description: 'Expected calibration error on the audit sample, raw and calibrated.',
  })
  ece: CalibrationErrorsDto;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'The lowest threshold t such that, with probability at least 1 − `delta`, reviewers agree with at least `targetAgreement` of the answers at or above t: fixed-sequence testing from high thresholds down with exact binomial (Clopper–Pearson) bounds on the audit sample ("Trust or Escalate", ICLR 2025). Null when the audit labels support none. See docs/quality.md.',
  })
  guaranteedMinSelectedProbability: number | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      "Share of this version's answers at or above the guaranteed threshold: what it would decide automatically. Null without one.",
  })
  coverageAtGuaranteed: number | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'Without a guaranteed threshold: about how many more audit labels would let one pass if agreement stays as it is; null when more labels alike cannot help (or there is a threshold).',
  })
  auditLabelsNeeded: number | null;

  @ApiProperty({ description: 'Labels of this question on audit-sample evaluations.' })
  auditLabels: number;

  @ApiProperty({
    type: CalibrationMapDto,
    nullable: true,
    description:
      "The question's fitted calibration map (POST /api/packs/{packId}/calibration/fit, or the worker's refit): its points, from the judge's selected probability to the chance that a reviewer agrees, read by linear interpolation between them. Null while the question has none.",
  })
  calibrationMap: CalibrationMapDto | null;
}

export class CalibrationDto {
  @ApiProperty()
  packId: string;

  @ApiProperty()
  versionId: string;

  @ApiProperty()
  targetAgreement: number;

  @ApiProperty({ description: 'The risk δ of the guaranteed thresholds.' })
  delta: number;

  @ApiProperty({ type: [QuestionCalibrationDto] })
  questions: QuestionCalibrationDto[];
}

export class ThresholdPreviewQueryDto {
  @ApiProperty({ pattern: '^[A-Za-z0-9_-]{1,64}$', example: 'department', description: 'A question id.' })
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'questionId must be 1 to 64 letters, digits, _ or -' })
  questionId: string;

  @ApiProperty({
    minimum: 0,
    maximum: 1,
    example: 0.6,
    description: 'The minimum selected probability to try.',
  })
  @Type(() => Number)
  @IsNumber()
  @Min(0)
  @Max(1)
  threshold: number;
}

export class ThresholdPreviewDto {
  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty()
  questionId: string;

  @ApiProperty()
  threshold: number;

  @ApiProperty({ example: 30, description: 'Days looked back over.' })
  days: number;

  @ApiProperty({ format: 'date-time', description: 'The start of the window (now minus `days`).' })
  since: string;

  @ApiProperty({
    description:
      "The pack's live evaluations (sources api, webhook and mcp, any version) in the window that answered the question.",
  })
  evaluated: number;

  @ApiProperty({ description: 'Of those, the ones whose selected probability is below `threshold`.' })
  belowThreshold: number;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      '`belowThreshold / evaluated`: the share this question alone would have sent to review; null when none.',
  })
  reviewShare: number | null;
}

/** GET /api/labels/export: optional filters by the labeled evaluation's pack or pack version. */
export class ExportLabelsQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "Only labels of this pack's evaluations." })
  @Omittable()
  @IsString()
  packId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only labels of this pack version's evaluations." })
  @Omittable()
  @IsString()
  packVersionId?: string;
}
