import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  ALERT_RULE_LIMITS,
  ALERT_RULES,
  ALERT_STATUSES,
  DEFAULT_ALERT_RULES,
  type AlertRule,
  type AlertStatus,
} from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';

const { share, psiThreshold, count, confidence } = ALERT_RULE_LIMITS;
const finite = { allowNaN: false, allowInfinity: false };

/** A number field in [min, max], with one message for every way it can be wrong. */
function Bounded(name: string, limits: { min: number; max: number }, integer = false): PropertyDecorator {
  const message = `${name} must be ${integer ? 'an integer' : 'a number'} from ${limits.min} to ${limits.max}`;
  return (target, key) => {
    (integer ? IsInt({ message }) : IsNumber(finite, { message }))(target, key);
    Min(limits.min, { message })(target, key);
    Max(limits.max, { message })(target, key);
  };
}

function Enabled(): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ description: 'False turns the rule off (its open alerts close at the next check).' })(
      target,
      key,
    );
    IsBoolean({ message: 'enabled must be a boolean' })(target, key);
  };
}

export class AgreementDriftRuleDto {
  @Enabled()
  enabled: boolean;

  @ApiProperty({
    minimum: share.min,
    maximum: share.max,
    example: DEFAULT_ALERT_RULES.agreementDrift.margin,
    description: 'Fires when the upper bound on recent agreement is below the baseline agreement minus this.',
  })
  @Bounded('margin', share)
  margin: number;

  @ApiProperty({
    type: 'integer',
    minimum: count.min,
    maximum: count.max,
    example: 30,
    description: 'Labels needed in each window.',
  })
  @Bounded('minLabels', count, true)
  minLabels: number;

  @ApiProperty({
    minimum: confidence.min,
    maximum: confidence.max,
    example: 0.95,
    description: 'One-sided confidence of the Wilson upper bound.',
  })
  @Bounded('confidence', confidence)
  confidence: number;
}

export class AnswerShiftRuleDto {
  @Enabled()
  enabled: boolean;

  @ApiProperty({
    minimum: psiThreshold.min,
    maximum: psiThreshold.max,
    example: 0.25,
    description: 'Fires when the population stability index is above this.',
  })
  @Bounded('psiThreshold', psiThreshold)
  psiThreshold: number;

  @ApiProperty({
    type: 'integer',
    minimum: count.min,
    maximum: count.max,
    example: 50,
    description: 'Answers to the question needed in each window.',
  })
  @Bounded('minCount', count, true)
  minCount: number;
}

export class ReviewShareJumpRuleDto {
  @Enabled()
  enabled: boolean;

  @ApiProperty({
    minimum: share.min,
    maximum: share.max,
    example: 0.1,
    description: 'The least rise of the review share that counts.',
  })
  @Bounded('minJump', share)
  minJump: number;

  @ApiProperty({
    type: 'integer',
    minimum: count.min,
    maximum: count.max,
    example: 50,
    description: 'Live evaluations needed in each window.',
  })
  @Bounded('minCount', count, true)
  minCount: number;

  @ApiProperty({
    minimum: confidence.min,
    maximum: confidence.max,
    example: 0.95,
    description: 'One-sided confidence of the two-proportion z test.',
  })
  @Bounded('confidence', confidence)
  confidence: number;
}

export class GatewayFailureRateRuleDto {
  @Enabled()
  enabled: boolean;

  @ApiProperty({
    minimum: share.min,
    maximum: share.max,
    example: 0.2,
    description:
      'Fires when the share of the last 15 minutes’ evaluations with a gateway failure is above this.',
  })
  @Bounded('threshold', share)
  threshold: number;

  @ApiProperty({
    type: 'integer',
    minimum: count.min,
    maximum: count.max,
    example: 10,
    description: 'Live evaluations needed in the window.',
  })
  @Bounded('minCount', count, true)
  minCount: number;
}

/** A nested rule: an object (not an array, not null), validated by its own DTO. */
function Rule(name: string, dto: new () => object): PropertyDecorator {
  return (target, key) => {
    ApiProperty({ type: dto })(target, key);
    IsObject({ message: `${name} must be an object` })(target, key);
    ValidateNested()(target, key);
    Type(() => dto)(target, key);
  };
}

/** GET and PUT /api/packs/{packId}/alert-rules: the body of PUT (every rule, every field) and the answer of both. */
export class AlertRulesDto {
  @Rule('agreementDrift', AgreementDriftRuleDto)
  agreementDrift: AgreementDriftRuleDto;

  @Rule('answerShift', AnswerShiftRuleDto)
  answerShift: AnswerShiftRuleDto;

  @Rule('reviewShareJump', ReviewShareJumpRuleDto)
  reviewShareJump: ReviewShareJumpRuleDto;

  @Rule('gatewayFailureRate', GatewayFailureRateRuleDto)
  gatewayFailureRate: GatewayFailureRateRuleDto;
}

export class ListAlertsQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only this pack’s alerts (another user’s pack: 404).' })
  @Omittable()
  @IsString()
  @MaxLength(64)
  packId?: string;

  @ApiPropertyOptional({ enum: ALERT_STATUSES })
  @Omittable()
  @IsIn(ALERT_STATUSES, { message: `status must be one of: ${ALERT_STATUSES.join(', ')}` })
  status?: AlertStatus;
}

export class AlertDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty({ enum: ALERT_RULES })
  rule: AlertRule;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The question, for `agreement_drift` and `answer_shift`; null for the pack-wide rules.',
  })
  questionId: string | null;

  @ApiProperty({
    enum: ALERT_STATUSES,
    description: '`open` until acknowledged; `closed` by the worker once the condition has cleared.',
  })
  status: AlertStatus;

  @ApiProperty({ description: 'What changed, since when and by how much, in a sentence.' })
  summary: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The numbers behind the test, as of the last check (the rule’s own fields: docs/alerts.md), with the sample sizes.',
  })
  figures: Record<string, unknown>;

  @ApiProperty({
    type: [String],
    description: 'Up to 5 example evaluations (newest first), for GET /api/evaluations/{id}.',
  })
  exampleEvaluationIds: string[];

  @ApiProperty({ format: 'date-time', description: 'The start of the window the condition was measured on.' })
  since: string;

  @ApiProperty({ format: 'date-time', description: 'When the alert opened.' })
  createdAt: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When its figures were last refreshed or its status changed.',
  })
  updatedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  acknowledgedAt: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  closedAt: string | null;
}
