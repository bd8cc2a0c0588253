import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { IsIn, IsNumber, IsObject, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import {
  AUDIT_STRATEGIES,
  DERIVE_TARGETS,
  OUTCOMES,
  type AuditStrategy,
  type DeriveTarget,
  type Outcome,
  type PackDocument,
} from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';

export class QuestionReviewDto {
  @ApiProperty({
    minimum: 0,
    maximum: 1,
    example: 0.6,
    description: 'Below this selected-answer probability the ticket goes to review.',
  })
  minSelectedProbability: number;

  @ApiPropertyOptional({
    description:
      "Default false. True: the decision rule compares the question's calibrated probability (the chance that a reviewer agrees, from its calibration map; see `calibrated` on an evaluation) with `minSelectedProbability`, where the question has a map; without a map, and by default, the judge's own selected probability. A value that is not a boolean is 400 `invalid request` with an issue at `questions.<n>.review.useCalibrated`.",
  })
  useCalibrated?: boolean;
}

/** OpenAPI only: the document is checked by its zod schema in @app/domain (`checkPackDocument`). */
abstract class QuestionBaseDto {
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

  @ApiProperty({ type: QuestionReviewDto })
  review: QuestionReviewDto;
}

export class ChoiceOptionDto {
  @ApiProperty({ minLength: 1, example: 'billing', description: 'Unique within the question.' })
  value: string;

  @ApiPropertyOptional({ example: 'Charges, invoices, refunds' })
  description?: string;

  @ApiPropertyOptional({ enum: OUTCOMES })
  outcome?: Outcome;
}

export class ChoiceCriteriaDto {
  @ApiProperty({ type: [ChoiceOptionDto], minItems: 2, description: '2 or more, with unique values.' })
  options: ChoiceOptionDto[];

  @ApiPropertyOptional({
    enum: DERIVE_TARGETS,
    description: 'The selected value goes into `result.derived` under this name.',
  })
  derive?: DeriveTarget;
}

export class BooleanCriteriaDto {
  @ApiPropertyOptional()
  description?: string;

  @ApiPropertyOptional({ enum: OUTCOMES })
  outcomeWhenTrue?: Outcome;

  @ApiPropertyOptional({ enum: OUTCOMES })
  outcomeWhenFalse?: Outcome;
}

export class ScoreCriteriaDto {
  @ApiProperty({ example: 1 })
  min: number;

  @ApiProperty({ example: 5, description: 'Greater than `min`.' })
  max: number;

  @ApiPropertyOptional()
  description?: string;
}

/** The criteria of one type; unknown keys (here and in the question) are kept. */
function criteria(model: new () => unknown) {
  return ApiProperty({
    allOf: [{ $ref: getSchemaPath(model) }],
    additionalProperties: true,
    description: 'Unknown keys (here and in the question) are kept.',
  });
}

export class ChoiceQuestionDto extends QuestionBaseDto {
  @ApiProperty({ enum: ['choice'] })
  type: 'choice';

  @criteria(ChoiceCriteriaDto)
  criteria: ChoiceCriteriaDto;
}

export class BooleanQuestionDto extends QuestionBaseDto {
  @ApiProperty({ enum: ['boolean'] })
  type: 'boolean';

  @criteria(BooleanCriteriaDto)
  criteria: BooleanCriteriaDto;
}

export class ScoreQuestionDto extends QuestionBaseDto {
  @ApiProperty({ enum: ['score'] })
  type: 'score';

  @criteria(ScoreCriteriaDto)
  criteria: ScoreCriteriaDto;
}

const QUESTION_MODELS = { choice: ChoiceQuestionDto, boolean: BooleanQuestionDto, score: ScoreQuestionDto };

@ApiExtraModels(...Object.values(QUESTION_MODELS), ChoiceCriteriaDto, BooleanCriteriaDto, ScoreCriteriaDto)
export class PackDocumentDto {
  @ApiProperty({
    type: 'array',
    description: 'The questions, each with the criteria of its `type`.',
    items: {
      oneOf: Object.values(QUESTION_MODELS).map((model) => ({ $ref: getSchemaPath(model) })),
      discriminator: {
        propertyName: 'type',
        mapping: Object.fromEntries(
          Object.entries(QUESTION_MODELS).map(([type, model]) => [type, getSchemaPath(model)]),
        ),
      },
    },
  })
  questions: (ChoiceQuestionDto | BooleanQuestionDto | ScoreQuestionDto)[];
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

  @ApiProperty({
    description:
      "True when the draft differs from the live version (deep comparison, key order ignored, arrays in order, unknown keys counted), or when there is no live version and the draft has questions: the pack list's `unpublishedChanges`. False means publishing would make a version identical to the live one.",
  })
  unpublishedChanges: boolean;

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

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "The live version's `number` (publication order, as in GET /api/packs/{id}/versions); null when the pack has no live version.",
  })
  liveVersionNumber?: number | null;
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

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "The version's number: its place in the order the pack's versions were published (1 for the first). Null for the draft, which gets its number when it is published.",
  })
  number?: number | null;
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

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    example: { department: ['criteria.options.2.description', 'review.minSelectedProbability'] },
    description:
      'For each id of `changed`: the dotted paths, relative to the question, whose values differ (a key or array item present on one side only is one path).',
  })
  changedPaths: Record<string, string[]>;
}

export class CompareQueryDto {
  @ApiProperty({ format: 'uuid', description: 'A version id of this pack.' })
  @IsString()
  from: string;

  @ApiProperty({ format: 'uuid', description: 'A version id of this pack.' })
  @IsString()
  to: string;
}

/** GET and PUT /api/packs/{packId}/audit: the body of both, and the answer of both. */
export class AuditSettingsDto {
  @ApiProperty({
    minimum: 0,
    maximum: 1,
    example: 0.05,
    description:
      "The expected share of the pack's automatically decided evaluations (status `accept` or `reject`, source `api`, `webhook` or `mcp`) selected for audit. 0 (the default) is off: nothing is drawn and evaluations store `auditProbability` null.",
  })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'rate must be a number from 0 to 1' })
  @Min(0, { message: 'rate must be a number from 0 to 1' })
  @Max(1, { message: 'rate must be a number from 0 to 1' })
  rate: number;

  @ApiProperty({
    enum: AUDIT_STRATEGIES,
    default: 'uncertainty',
    description:
      '`uniform`: every live evaluation is selected with probability π = `rate`. `uncertainty` (the default): π = min(1, rate·(0.2 + 0.8·u/ū)), where u = √(mean over the answered questions of 1 − c), c the calibrated probability of the question\'s answer where the pack has a calibration map for it, else its selected probability (1 for a failed judgment), and ū the mean of u over the pack\'s latest 1,000 drawn automatic decisions: less certain decisions are checked more often, every one has π ≥ 0.2·rate, and the expected share stays `rate` (π = `rate` until ū is known). See docs/reviews.md, "Audit sampling".',
  })
  @IsIn(AUDIT_STRATEGIES, { message: `strategy must be one of: ${AUDIT_STRATEGIES.join(', ')}` })
  strategy: AuditStrategy;
}
