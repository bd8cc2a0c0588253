import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { EvaluationService } from '@app/judging';
import { EvaluationDto, EvaluationPageDto, EvaluationSummaryDto } from '../judging/judgment.dto.js';
import { ListEvaluationsQueryDto } from './evaluations.dto.js';

@ApiTags('evaluations')
// The list's items extend it: kept in the document under its own name for clients generated from it.
@ApiExtraModels(EvaluationSummaryDto)
@Controller('api/evaluations')
export class EvaluationsController {
  constructor(private readonly evaluations: EvaluationService) {}

  @Get()
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'List your evaluations, newest first, 50 a page (keyset pagination with an opaque cursor)',
  })
  @ApiOkResponse({ type: EvaluationPageDto })
  @ApiBadRequestResponse({ description: '`invalid cursor` or a bad filter', type: ErrorBodyDto })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListEvaluationsQueryDto,
  ): Promise<EvaluationPageDto> {
    const { cursor, ...filter } = query;
    return this.evaluations.list(principal.userId, filter, cursor);
  }

  @Get(':id')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({ summary: 'Read one evaluation, with its redacted ticket, result and labels' })
  @ApiOkResponse({ type: EvaluationDto })
  @ApiNotFoundResponse({ description: '`evaluation not found`', type: ErrorBodyDto })
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<EvaluationDto> {
    return this.evaluations.get(principal.userId, id);
  }
}
