import { ApiExtraModels, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type {
  Answer,
  Derived,
  EvaluationSource,
  EvaluationStatus,
  JudgmentResult,
  Ticket,
  Usage,
} from '@app/domain';
import { SchemaDto } from '../errors/schema-body.js';
import {
  CALIBRATED_PROPERTY,
  CALIBRATED_WITH_PROPERTY,
  CalibratedWithDto,
  CalibrationUsedDto,
} from './calibrated.dto.js';
import { judgeBodySchema } from './judge-body.schema.js';
import { TicketDto } from './ticket.dto.js';

export class UsageDto {
  @ApiProperty()
  inputTokens: number;

  @ApiProperty()
  outputTokens: number;
}

export class DerivedDto {
  @ApiPropertyOptional()
  department?: string;

  @ApiPropertyOptional()
  priority?: string;

  @ApiPropertyOptional({ type: [String] })
  tags?: string[];
}

/** One of three shapes, by `type`; documented as one object with the fields each shape may carry. */
export class AnswerDto {
  @ApiProperty({ enum: ['choice', 'score', 'boolean'] })
  type: string;

  @ApiPropertyOptional({ description: 'type choice: the selected option value' })
  choice?: string;

  @ApiPropertyOptional({ description: 'type score: the score' })
  score?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1,
    description: 'type boolean: probability that the answer is true',
  })
  probability?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
    description: 'choice and score: probability of each option or score value',
  })
  probabilities?: Record<string, number>;
}

export class JudgmentResultDto implements JudgmentResult {
  @ApiProperty({ enum: ['accept', 'review', 'reject'] })
  status: EvaluationStatus;

  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/AnswerDto' },
    description: 'Keyed by question id.',
  })
  answers: Record<string, Answer>;

  @ApiProperty({
    type: [String],
    description:
      'Empty when nothing needs review. `low_confidence:<questionId>`, `outcome_review:<questionId>`, or one failure kind: `gateway_auth`, `gateway_unavailable`, `invalid_model_output`, `invalid_pack`, `invalid_ticket`.',
  })
  reviewReasons: string[];

  @ApiProperty({
    minLength: 1,
    description: 'The model id returned by the gateway (pin checks to this field).',
  })
  modelId: string;

  @ApiProperty({ description: "The model call's wall time in whole milliseconds." })
  latencyMs: number;

  @ApiPropertyOptional({ type: DerivedDto })
  derived?: Derived;

  @ApiPropertyOptional({ type: UsageDto })
  usage?: Usage;
}

/** The judge and inbound body (see judge-body.schema.ts). */
export class JudgeRequestDto extends SchemaDto(judgeBodySchema, { ticket: () => TicketDto }) {}

export class JudgeResponseDto {
  @ApiProperty({ format: 'uuid' })
  evaluationId: string;

  @ApiProperty({ format: 'uuid' })
  packVersionId: string;

  @ApiProperty({ type: JudgmentResultDto })
  result: JudgmentResultDto;
}

export const AUDIT_PROBABILITY_DESCRIPTION =
  "π, the probability with which the audit draw selected this evaluation when it was stored, whether or not it did (estimates weight an audit label by 1/π). Null when nothing was drawn: the pack's audit rate was 0, or the source is not live traffic (`playground`, `simulation`). See PUT /api/packs/{packId}/audit.";

export const AUDIT_SELECTED_DESCRIPTION =
  'Whether the audit draw selected this evaluation ("selected for audit"); null when nothing was drawn.';

export class EvaluationSummaryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty({ format: 'uuid' })
  packVersionId: string;

  @ApiProperty({ enum: ['playground', 'api', 'mcp', 'webhook', 'simulation'] })
  source: EvaluationSource;

  @ApiProperty({ enum: ['accept', 'review', 'reject'] })
  status: EvaluationStatus;

  @ApiProperty()
  modelId: string;

  @ApiProperty({ type: 'integer' })
  latencyMs: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class LabelDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  questionId: string;

  @ApiProperty({ type: AnswerDto })
  answer: unknown;

  @ApiProperty()
  note: string;

  @ApiProperty({ description: "True when the label's answer equals the model's answer for that question." })
  agreement: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

/**
 * What every read of one evaluation adds beside `result` (the evaluation, review and audit items):
 * its audit draw and its calibrated probabilities.
 */
@ApiExtraModels(CalibrationUsedDto)
export class EvaluationSummaryWithQualityDto extends EvaluationSummaryDto {
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: AUDIT_PROBABILITY_DESCRIPTION,
  })
  auditProbability?: number | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true, description: AUDIT_SELECTED_DESCRIPTION })
  auditSelected?: boolean | null;

  @ApiProperty(CALIBRATED_PROPERTY)
  calibrated: Record<string, number> | null;

  @ApiProperty(CALIBRATED_WITH_PROPERTY)
  calibratedWith: CalibratedWithDto | null;
}

export class EvaluationDto extends EvaluationSummaryWithQualityDto {
  @ApiProperty({ type: TicketDto, description: 'The ticket as stored: redacted.' })
  redactedTicket: Ticket;

  @ApiProperty({ type: JudgmentResultDto })
  result: JudgmentResult;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    description:
      "Per question id, the probability of the selected answer as the decision rule read it (compared with the question's `minSelectedProbability`), as stored with the evaluation.",
    example: { department: 0.82 },
  })
  selectedProbabilities: Record<string, number>;

  @ApiProperty({ type: UsageDto })
  usage: Usage;

  @ApiProperty({ type: [LabelDto] })
  labels: LabelDto[];
}

export class EvaluationListItemDto extends EvaluationSummaryDto {
  @ApiPropertyOptional({ description: "The ticket's subject as stored (redacted)." })
  subject?: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The ticket's `externalId`; null when it has none.",
  })
  externalId?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { $ref: '#/components/schemas/AnswerDto' },
    description: 'The answers by question id, as in `result.answers` (empty when judging failed).',
  })
  answers?: Record<string, Answer>;
}

export class EvaluationPageDto {
  @ApiProperty({ type: [EvaluationListItemDto] })
  items: EvaluationListItemDto[];

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  nextCursor: string | null;

  @ApiProperty({
    type: 'integer',
    description:
      'Evaluations for these filters, all pages together, counted up to 10,000, or 1,000 with a search `q` (a bounded cost, whatever the table holds): exact when `totalCapped` is false.',
  })
  total: number;

  @ApiProperty({
    description:
      'True when there are more than `total` evaluations for these filters (the count stopped at its cap, 10,000 or 1,000 with `q`).',
  })
  totalCapped: boolean;
}
