import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, MaxLength, MinLength } from 'class-validator';
import type { PackDocument } from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';

export class QuestionReviewDto {
  @ApiProperty({
    minimum: 0,
    maximum: 1,
    example: 0.6,
    description: 'Below this selected-answer probability the ticket goes to review.',
  })
  minSelectedProbability: number;
}

export class QuestionDto {
  @ApiProperty({ enum: ['choice', 'boolean', 'score'] })
  type: string;

  @ApiProperty({
    pattern: '^[A-Za-z0-9_-]{1,64}$',
    example: 'department',
    description: 'Unique within the pack; keys of `result.answers`.',
  })
  id: string;

  @ApiProperty({ minLength: 1, example: 'Department' })
  name: string;

  @ApiProperty({ example: 'Which team should handle this ticket?' })
  instructions: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: [
      'By type (unknown keys are kept):',
      '- choice: `{options: [{value, description?, outcome?}], derive?}`, 2+ unique option values; `outcome` is accept|review|reject;',
      '  `derive` is department|priority|tags (the selected value goes into `result.derived`).',
      '- boolean: `{description?, outcomeWhenTrue?, outcomeWhenFalse?}`.',
      '- score: `{min, max, description?}` with min < max.',
    ].join('\n'),
    example: {
      options: [{ value: 'billing', description: 'Charges, invoices, refunds' }, { value: 'technical' }],
      derive: 'department',
    },
  })
  criteria: Record<string, unknown>;

  @ApiProperty({ type: QuestionReviewDto })
  review: QuestionReviewDto;
}

export class PackDocumentDto {
  @ApiProperty({ type: [QuestionDto] })
  questions: QuestionDto[];
}

const DOCUMENT_DESCRIPTION =
  'The pack document. Checked on save and again on publish: a schema failure is 400 `invalid request` with `issues` whose paths are relative to the document (for example `questions.2.review.minSelectedProbability`).';

export class CreatePackDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'Support triage' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({
    type: PackDocumentDto,
    description: `${DOCUMENT_DESCRIPTION} Absent means \`{questions: []}\`.`,
  })
  @Omittable()
  @IsObject()
  document?: Record<string, unknown>;
}

export class UpdatePackDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 200 })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({
    type: PackDocumentDto,
    description: `${DOCUMENT_DESCRIPTION} Replaces the draft; the live version never changes here.`,
  })
  @Omittable()
  @IsObject()
  document?: Record<string, unknown>;
}

export class ImportPackDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;

  @ApiProperty({ type: PackDocumentDto, description: DOCUMENT_DESCRIPTION })
  @IsObject()
  document: Record<string, unknown>;
}

export class PackDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description: 'The published version; null until the first publish.',
  })
  liveVersionId: string | null;

  @ApiProperty({ format: 'uuid' })
  draftVersionId: string;

  @ApiProperty({ type: PackDocumentDto, description: 'The draft.' })
  document: PackDocument;

  @ApiProperty({
    type: PackDocumentDto,
    nullable: true,
    description: 'The published document; null without a live version.',
  })
  liveDocument: PackDocument | null;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class PackListItemDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  liveVersionId: string | null;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;

  @ApiProperty({ description: 'Questions in the draft.' })
  questionCount: number;

  @ApiProperty({
    description:
      'True when the draft differs from the live version (deep comparison, key order ignored), or when there is no live version and the draft has questions.',
  })
  unpublishedChanges: boolean;
}

export class PackExportDto {
  @ApiProperty()
  name: string;

  @ApiProperty({ type: PackDocumentDto, description: 'The draft.' })
  document: PackDocument;
}

export class PackVersionDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Null for the current draft.',
  })
  publishedAt: string | null;
}

export class PackVersionDocumentDto extends PackVersionDto {
  @ApiProperty({ type: PackDocumentDto, description: 'The document as this version holds it.' })
  document: PackDocument;
}

export class PackComparisonDto {
  @ApiProperty({ type: [String], description: 'Question ids only in `to`.' })
  added: string[];

  @ApiProperty({ type: [String], description: 'Question ids only in `from`.' })
  removed: string[];

  @ApiProperty({ type: [String], description: 'Question ids in both whose question differs.' })
  changed: string[];
}

export class CompareQueryDto {
  @ApiProperty({ format: 'uuid', description: 'A version id of this pack.' })
  @IsString()
  from: string;

  @ApiProperty({ format: 'uuid', description: 'A version id of this pack.' })
  @IsString()
  to: string;
}
