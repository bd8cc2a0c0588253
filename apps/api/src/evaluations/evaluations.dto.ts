import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength } from 'class-validator';
import {
  EVALUATION_SOURCES,
  EVALUATION_STATUSES,
  type EvaluationSource,
  type EvaluationStatus,
} from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';

export class ListEvaluationsQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @Omittable()
  @IsString()
  packId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the evaluations of this simulation.' })
  @Omittable()
  @IsString()
  simulationId?: string;

  @ApiPropertyOptional({ enum: EVALUATION_STATUSES })
  @Omittable()
  @IsIn(EVALUATION_STATUSES)
  status?: EvaluationStatus;

  @ApiPropertyOptional({ enum: EVALUATION_SOURCES })
  @Omittable()
  @IsIn(EVALUATION_SOURCES)
  source?: EvaluationSource;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @Omittable()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/**
 * GET /api/evaluations/export: the list's filters, whatever they are, without its cursor (an export
 * holds every page), so a filter added to the list is an export filter too.
 */
export class ExportEvaluationsQueryDto extends OmitType(ListEvaluationsQueryDto, ['cursor'] as const) {}
