import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { QUESTION_ID_PATTERN } from '@app/domain';
import { AnswerDto } from '../judging/judgment.dto.js';
import { CostSumDto } from '../judging/cost.dto.js';
import { Omittable } from '../errors/validation-rules.js';

/** The longest simulation name, after trimming. */
export const SIMULATION_NAME_MAX = 200;

export class StartSimulationDto {
  @ApiProperty({ format: 'uuid' })
  @IsString()
  @MinLength(1)
  datasetId: string;

  @ApiProperty({ format: 'uuid' })
  @IsString()
  @MinLength(1)
  packId: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      'Run this version of the pack (the draft included) instead of the live one, for example to try a draft before publishing.',
  })
  @Omittable()
  @IsString()
  packVersionId?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: SIMULATION_NAME_MAX,
    example: 'Draft with stricter refunds',
    description:
      'A name for the run, shown instead of its date in lists. Leading and trailing white space is removed; what remains must be 1 to 200 characters. Without it the simulation has no name (`name` null).',
  })
  @Omittable()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @MinLength(1, { message: 'name must not be blank' })
  @MaxLength(SIMULATION_NAME_MAX)
  name?: string;
}

export class SimulationIdDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
}

export class SimulationListItemDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ format: 'uuid' })
  datasetId: string;

  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty({ format: 'uuid' })
  packVersionId: string;

  @ApiProperty({ enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] })
  status: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty()
  datasetName: string;

  @ApiProperty()
  packName: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The name given when it was started; null when none was given.',
  })
  name?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    minimum: 1,
    description:
      "The number of its pack version (the `number` of GET /api/packs/{id}/versions: publication order, from 1); null while that version is the pack's draft.",
  })
  packVersionNumber?: number | null;

  @ApiPropertyOptional({ description: "Whether its pack version is the pack's live version now." })
  packVersionLive?: boolean;
}

export class SimulationListDto {
  @ApiProperty({ type: [SimulationListItemDto] })
  items: SimulationListItemDto[];
}

class ByStatusDto {
  @ApiProperty()
  accept: number;

  @ApiProperty()
  review: number;

  @ApiProperty()
  reject: number;
}

export class SimulationDto extends SimulationListItemDto {
  @ApiProperty({ description: 'Tickets in the run (the dataset when it started).' })
  total: number;

  @ApiProperty({ description: 'Tickets judged so far.' })
  completed: number;

  @ApiProperty({ type: ByStatusDto })
  byStatus: ByStatusDto;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  startedAt: string | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  finishedAt: string | null;

  @ApiProperty({ nullable: true, type: String, description: 'Why the simulation failed.' })
  reason: string | null;

  @ApiPropertyOptional({
    type: CostSumDto,
    description:
      'What its evaluations so far cost, in USD (docs/cost.md): the sum of the known costs, and how many are unknown (a model without a price in `MODEL_PRICES`), so a partial sum is not read as the full one.',
  })
  cost?: CostSumDto;

  @ApiProperty({
    nullable: true,
    type: Number,
    description:
      'Tickets judged per second since the run started (until it finished); null before the first ticket.',
  })
  ratePerSecond: number | null;

  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description:
      'When the run should finish at its rate so far; only while it is queued or running, null otherwise.',
  })
  estimatedFinishAt: string | null;

  @ApiPropertyOptional({
    type: () => QuestionAgreementDto,
    isArray: true,
    description:
      "Agreement with the dataset's expected answers, per question of the run's version (in its order), over the tickets judged so far. Present when a judged ticket carries expected answers.",
  })
  expectedAgreement?: QuestionAgreementDto[];
}

class QuestionChangeDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ description: 'Tickets whose answer to this question differs between the two runs.' })
  changed: number;
}

class AnswerChangeDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ type: AnswerDto, nullable: true, description: 'The answer in the first run (`from`).' })
  from: AnswerDto | null;

  @ApiProperty({ type: AnswerDto, nullable: true, description: 'The answer in the second run (`to`).' })
  to: AnswerDto | null;
}

class ChangedTicketDto {
  @ApiProperty({ format: 'uuid', description: 'The dataset ticket.' })
  ticketId: string;

  @ApiProperty({ type: String, nullable: true, description: "The ticket's subject as stored (redacted)." })
  subject: string | null;

  @ApiProperty({ type: String, nullable: true, description: "The ticket's `externalId`, if it has one." })
  externalId: string | null;

  @ApiProperty({ format: 'uuid', description: 'Its evaluation in the first run.' })
  fromEvaluationId: string;

  @ApiProperty({ format: 'uuid', description: 'Its evaluation in the second run.' })
  toEvaluationId: string;

  @ApiProperty({ enum: ['accept', 'review', 'reject'] })
  fromStatus: string;

  @ApiProperty({ enum: ['accept', 'review', 'reject'] })
  toStatus: string;

  @ApiProperty({
    type: [AnswerChangeDto],
    description: 'The questions whose answer changed (by question id), with both answers.',
  })
  answers: AnswerChangeDto[];
}

class StatusChangeDto {
  @ApiProperty({ enum: ['accept', 'review', 'reject'] })
  from: string;

  @ApiProperty({ enum: ['accept', 'review', 'reject'] })
  to: string;

  @ApiProperty()
  count: number;
}

export class SimulationComparisonDto {
  @ApiProperty({ format: 'uuid' })
  from: string;

  @ApiProperty({ format: 'uuid' })
  to: string;

  @ApiProperty({ description: 'Tickets judged in both runs.' })
  tickets: number;

  @ApiProperty({ type: [QuestionChangeDto] })
  questions: QuestionChangeDto[];

  @ApiProperty({
    type: [StatusChangeDto],
    description: 'Status pairs (from -> to) with their ticket counts, unchanged pairs included.',
  })
  statusChanges: StatusChangeDto[];

  @ApiPropertyOptional({
    type: [ChangedTicketDto],
    description:
      "The tickets whose status or any answer changed, in the dataset's order, each with its answers before and after (a dataset holds at most 250 tickets, so the list is never paged).",
  })
  changedTickets?: ChangedTicketDto[];
}

export class QuestionAgreementDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ type: 'integer', description: 'Judged tickets with an expected answer to this question.' })
  compared: number;

  @ApiProperty({ type: 'integer', description: 'Of those, the tickets whose answer is the expected one.' })
  agreed: number;

  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: 1,
    description: 'agreed / compared; null when nothing was compared.',
  })
  rate: number | null;
}

export class DisagreementsQueryDto {
  @ApiPropertyOptional({ description: "Only this question's disagreements.", example: 'department' })
  @Omittable()
  @IsString()
  @Matches(QUESTION_ID_PATTERN)
  questionId?: string;
}

class ExpectedDisagreementDto {
  @ApiProperty({ format: 'uuid', description: 'The dataset ticket.' })
  ticketId: string;

  @ApiProperty({ type: 'integer', description: "The ticket's 0-based place in the dataset." })
  position: number;

  @ApiProperty({ type: String, nullable: true })
  externalId: string | null;

  @ApiProperty({ description: 'The redacted subject.' })
  subject: string;

  @ApiProperty({ format: 'uuid', description: "The simulation's evaluation of the ticket." })
  evaluationId: string;

  @ApiProperty()
  questionId: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    description: 'The expected answer, as uploaded.',
  })
  expected: string | number | boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "The model's answer: the choice, `true`/`false` for a boolean, the score; null when the judgment gave none.",
  })
  answer: string | null;
}

export class ExpectedDisagreementPageDto {
  @ApiProperty({
    type: [ExpectedDisagreementDto],
    description: 'By ticket position, then question order; at most 500.',
  })
  items: ExpectedDisagreementDto[];

  @ApiProperty({ type: 'integer', description: 'Every disagreement, also those past the 500 listed.' })
  total: number;
}
