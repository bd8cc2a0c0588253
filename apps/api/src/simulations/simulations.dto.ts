import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, MinLength } from 'class-validator';
import { Omittable } from '../errors/validation-rules.js';

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
}

class QuestionChangeDto {
  @ApiProperty()
  questionId: string;

  @ApiProperty({ description: 'Tickets whose answer to this question differs between the two runs.' })
  changed: number;
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
}
