import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsNumber, IsString, Max, Min, ValidateBy, isISO8601 } from 'class-validator';
import { Omittable } from '../errors/validation-rules.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A UTC day, YYYY-MM-DD, checked as a real date (no 30 February). */
function UtcDay(name: 'from' | 'to', description: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ format: 'date', example: '2026-11-01', description }),
    Omittable(),
    ValidateBy({
      name: 'isUtcDay',
      validator: {
        validate: (value) =>
          typeof value === 'string' && DAY.test(value) && isISO8601(value, { strict: true }),
        defaultMessage: () => `${name} must be a date, like 2026-11-01`,
      },
    }),
  );
}

export class QualityQueryDto {
  @ApiPropertyOptional({
    format: 'uuid',
    description: 'A version of this pack; defaults to the live version.',
  })
  @Omittable()
  @IsString()
  versionId?: string;

  @UtcDay('from', 'First UTC day of the window (included); defaults to 29 days before `to`.')
  from?: string;

  @UtcDay('to', 'Last UTC day of the window (included); defaults to today. At most 366 days from `from`.')
  to?: string;

  @ApiPropertyOptional({
    minimum: 0.5,
    maximum: 0.999,
    default: 0.95,
    description: 'How often intervals computed this way contain the true value (0.95: 19 times in 20).',
  })
  @Omittable()
  @Type(() => Number)
  @IsNumber()
  @Min(0.5)
  @Max(0.999)
  confidence?: number;
}

export class ShareEstimateDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'The estimate; null when no label supports one.',
  })
  estimate: number | null;

  @ApiProperty({ nullable: true, type: Number, description: 'Lower end of the interval at `confidence`.' })
  low: number | null;

  @ApiProperty({ nullable: true, type: Number, description: 'Upper end of the interval at `confidence`.' })
  high: number | null;

  @ApiProperty({ description: 'Labels the estimate rests on (audit-sample evaluations labeled).' })
  labels: number;
}

export class CorrectedShareDto {
  @ApiProperty({ description: 'The answer: a choice, `true`/`false` for a boolean, the score as text.' })
  value: string;

  @ApiProperty({
    nullable: true,
    type: Number,
    description: "The judge's raw share of this answer in the window.",
  })
  judgeShare: number | null;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      "Prediction-powered: judgeShare plus the weighted mean, over the audit sample's labels, of (label is this answer − judge is this answer). Null without labels.",
  })
  correctedShare: number | null;

  @ApiProperty({ nullable: true, type: Number })
  low: number | null;

  @ApiProperty({ nullable: true, type: Number })
  high: number | null;

  @ApiProperty()
  labels: number;
}

export class QuestionQualityDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({
    type: ShareEstimateDto,
    description: "Share of the question's audit labels that agree with the judge.",
  })
  agreement: ShareEstimateDto;

  @ApiProperty({
    type: [CorrectedShareDto],
    description: "Each answer's share, raw and corrected, the judge's most frequent first.",
  })
  answers: CorrectedShareDto[];
}

export class QualityDto {
  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty({ format: 'uuid' })
  versionId: string;

  @ApiProperty({ format: 'date', description: 'First UTC day of the window (included).' })
  from: string;

  @ApiProperty({ format: 'date', description: 'Last UTC day of the window (included).' })
  to: string;

  @ApiProperty()
  confidence: number;

  @ApiProperty({ description: 'Live evaluations (api, webhook, mcp) of the version in the window.' })
  evaluations: number;

  @ApiProperty({ description: 'Of them, decided automatically (accept or reject).' })
  autoDecided: number;

  @ApiProperty({ description: 'Automatic decisions selected for audit.' })
  audited: number;

  @ApiProperty({ description: 'Evaluations of the audit sample (any status) with at least one label.' })
  labeled: number;

  @ApiProperty({
    type: ShareEstimateDto,
    description:
      'Share of automatic decisions on which the reviewer agrees with every labeled question: the audit labels weighted by 1/π (Hájek), with a Wilson interval at Kish’s effective sample size.',
  })
  autoDecisionAccuracy: ShareEstimateDto;

  @ApiProperty({ type: [QuestionQualityDto] })
  questions: QuestionQualityDto[];
}
