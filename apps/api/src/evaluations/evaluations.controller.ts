import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiExtraModels,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { EvaluationService } from '@app/judging';
import { EvaluationDto, EvaluationPageDto, EvaluationSummaryDto } from '../judging/judgment.dto.js';
import { csvResponse, sendCsv } from '../exports/csv-export.js';
import { ExportEvaluationsQueryDto, ListEvaluationsQueryDto } from './evaluations.dto.js';

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
    description:
      'Every filter is optional and they combine (AND): pack, pack version, simulation, status, sources, a ' +
      '`from`/`to` window on the creation time, and a search `q` on the external id and subject. `order=oldest` ' +
      'reverses the order. `total` counts every page for the filters, up to 10,000, or 1,000 with `q` (`totalCapped`). A cursor ' +
      'holds only a position in its order: send the same filters and order with it (one issued for the other ' +
      "order, another user's or tampered with is 400 `invalid cursor`; with other filters, the list goes on " +
      'from that position under the new filters).',
  })
  @ApiOkResponse({ type: EvaluationPageDto })
  @ApiBadRequestResponse({
    description:
      '`invalid cursor`, `from must not be later than to`, or `invalid request` naming a bad filter (a date that is not an ISO 8601 date-time, an unknown source or status, `q` over 200 characters)',
    type: ErrorBodyDto,
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListEvaluationsQueryDto,
  ): Promise<EvaluationPageDto> {
    const { cursor, order, source, ...filter } = query;
    return this.evaluations.list(principal.userId, { ...filter, sources: source }, order, cursor);
  }

  @Get('export')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'Every evaluation the list gives for these filters, as a CSV file',
    description:
      "The same filters as GET /api/evaluations (no cursor: every page), in the list's order, streamed as the client reads. Columns: `id`, `createdAt`, `source`, `status`, `packId`, `packVersionId`, `simulationId`, `externalId`, `subject` (as stored, redacted), and `answers`, a JSON object of question id to answer (the choice, `true`/`false` or the score): rows may come from any pack, so questions are not columns. RFC 4180 with CRLF and a UTF-8 BOM; a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'` (CSV injection guard). See docs/exports.md.",
  })
  @ApiOkResponse(
    csvResponse(
      'The evaluations, as an attachment (`evaluations.csv`); a header row alone when none match.',
      'id,createdAt,source,status,packId,packVersionId,simulationId,externalId,subject,answers\r\n',
    ),
  )
  @ApiBadRequestResponse({ description: 'a bad filter', type: ErrorBodyDto })
  async export(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ExportEvaluationsQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { order, source, ...filter } = query;
    await sendCsv(
      reply,
      'evaluations.csv',
      this.evaluations.export(principal.userId, { ...filter, sources: source }, order),
    );
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
