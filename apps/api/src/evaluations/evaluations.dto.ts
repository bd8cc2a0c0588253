import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  EVALUATION_SOURCES,
  EVALUATION_STATUSES,
  type EvaluationSource,
  type EvaluationStatus,
} from '@app/domain';

export class ListEvaluationsQueryDto {
  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsString()
  packId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the evaluations of this simulation.' })
  @IsOptional()
  @IsString()
  simulationId?: string;

  @ApiPropertyOptional({ enum: EVALUATION_STATUSES })
  @IsOptional()
  @IsIn(EVALUATION_STATUSES)
  status?: EvaluationStatus;

  @ApiPropertyOptional({ enum: EVALUATION_SOURCES })
  @IsOptional()
  @IsIn(EVALUATION_SOURCES)
  source?: EvaluationSource;

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}
