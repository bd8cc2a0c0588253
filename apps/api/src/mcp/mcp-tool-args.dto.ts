import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { z } from 'zod';
import { CompareQueryDto, PackListItemDto } from '../packs/packs.dto.js';
import { CalibrationQueryDto, CreateLabelDto, ListReviewsQueryDto } from '../reviews/reviews.dto.js';
import { StatsQueryDto } from '../reviews/stats.dto.js';
import { QualityQueryDto } from '../reviews/quality.dto.js';
import { judgeBodySchema } from '../judging/judge-body.schema.js';
import { TicketDto } from '../judging/ticket.dto.js';
import { StartShadowRunDto } from '../shadow/shadow.dto.js';
import { StartSimulationDto } from '../simulations/simulations.dto.js';
import { SchemaDto } from '../errors/schema-body.js';

/*
 * The arguments of each MCP tool, named as the REST route's path, query and body fields. Where a
 * REST DTO exists it is extended, so a tool checks exactly the rules its route checks.
 */

/** An id argument: ids are UUIDs, but a malformed one is "not found", as on the REST routes. */
function Id(description: string): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ format: 'uuid', description }),
    IsString(),
    MinLength(1),
    MaxLength(200),
  );
}

export class NoArgs {}

export class PackIdArgs {
  @Id('The pack.')
  packId: string;
}

export class ComparePackVersionsArgs extends CompareQueryDto {
  @Id('The pack whose versions are compared.')
  packId: string;
}

/** The hot tool takes the judge route's body (its one schema), plus its key. */
export class JudgeTicketArgs extends SchemaDto(
  judgeBodySchema.extend({
    idempotencyKey: z
      .string()
      .min(1)
      .max(128)
      .meta({
        description:
          'Judge at most once per key (24 hours): a replay returns the stored evaluation. Keys of this tool never collide with the REST Idempotency-Key header.',
      })
      .optional(),
  }),
  { ticket: () => TicketDto },
) {}

export class EvaluationIdArgs {
  @Id('The evaluation.')
  evaluationId: string;
}

export class ListReviewsArgs extends ListReviewsQueryDto {}

export class GetStatsArgs extends StatsQueryDto {}

export class LabelEvaluationArgs extends CreateLabelDto {
  @Id('The evaluation to label.')
  evaluationId: string;
}

export class DeleteLabelArgs {
  @Id('The evaluation the label is on.')
  evaluationId: string;

  @Id('The label.')
  labelId: string;
}

export class StartSimulationArgs extends StartSimulationDto {}

export class StartShadowRunArgs extends StartShadowRunDto {
  @Id('The pack whose live traffic is judged again.')
  packId: string;
}

export class ShadowRunIdArgs {
  @Id('The shadow run.')
  shadowRunId: string;
}

export class SimulationIdArgs {
  @Id('The simulation.')
  simulationId: string;
}

export class GetCalibrationArgs extends CalibrationQueryDto {
  @Id('The pack.')
  packId: string;
}

export class GetQualityArgs extends QualityQueryDto {
  @Id('The pack.')
  packId: string;
}

/** The answer of delete_label (the REST route answers 204 with no body). */
export class LabelDeletedDto {
  @ApiProperty({ format: 'uuid' })
  evaluationId: string;

  @ApiProperty({ format: 'uuid' })
  labelId: string;

  @ApiProperty({ enum: [true] })
  deleted: true;
}

/** list_packs wraps the REST array in `items`, as MCP structured results are objects. */
export class PackListDto {
  @ApiProperty({ type: [PackListItemDto] })
  items: PackListItemDto[];
}

/** Schemas the OpenAPI document must hold for the tools (arguments, and answers no route declares). */
export const MCP_SCHEMA_MODELS = [
  NoArgs,
  PackIdArgs,
  ComparePackVersionsArgs,
  JudgeTicketArgs,
  EvaluationIdArgs,
  ListReviewsArgs,
  GetStatsArgs,
  LabelEvaluationArgs,
  DeleteLabelArgs,
  StartSimulationArgs,
  SimulationIdArgs,
  StartShadowRunArgs,
  ShadowRunIdArgs,
  GetCalibrationArgs,
  GetQualityArgs,
  LabelDeletedDto,
  PackListDto,
];
