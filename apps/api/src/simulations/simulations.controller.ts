import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { SimulationExports, SimulationService } from '@app/simulations';
import { csvResponse, sendCsv } from '../exports/csv-export.js';
import {
  DisagreementsQueryDto,
  ExpectedDisagreementPageDto,
  SimulationComparisonDto,
  SimulationDto,
  SimulationIdDto,
  SimulationListDto,
  StartSimulationDto,
} from './simulations.dto.js';

const NOT_FOUND = { description: '`simulation not found`', type: ErrorBodyDto };

@ApiTags('simulations')
@Controller('api/simulations')
@Authenticated({ permission: 'simulations:run' })
export class SimulationsController {
  constructor(
    private readonly simulations: SimulationService,
    private readonly exports: SimulationExports,
  ) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Judge a whole dataset with a pack version, in the background',
    description:
      'Answers at once, before any ticket is judged. Records the live version (or `packVersionId`) at this moment; later publishes do not change it. Status: queued -> running -> completed, or failed (with a reason) or cancelled. An empty dataset completes at once. When it finishes, a signed `simulation.completed` or `simulation.failed` is POSTed to your saved completion endpoint (see the callbacks of POST /api/webhook-endpoints).',
  })
  @ApiAcceptedResponse({ type: SimulationIdDto })
  @ApiNotFoundResponse({
    description: '`dataset not found`, `pack not found` or `version not found`',
    type: ErrorBodyDto,
  })
  @ApiConflictResponse({
    description: '`pack has no published version` (and no packVersionId given)',
    type: ErrorBodyDto,
  })
  start(
    @CurrentPrincipal() principal: Principal,
    @Body() body: StartSimulationDto,
  ): Promise<SimulationIdDto> {
    return this.simulations.start(principal.userId, body);
  }

  @Get()
  @ApiOperation({ summary: 'Your simulations, newest first' })
  @ApiOkResponse({ type: SimulationListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<SimulationListDto> {
    return { items: await this.simulations.list(principal.userId) };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One simulation with its progress',
    description:
      'When tickets it judged carry expected answers (see the dataset upload), `expectedAgreement` gives per question of its version how many were compared and agreed; GET /api/simulations/{id}/disagreements lists the tickets that did not.',
  })
  @ApiOkResponse({ type: SimulationDto })
  @ApiNotFoundResponse(NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SimulationDto> {
    return this.simulations.get(principal.userId, id);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a queued or running simulation; tickets not yet judged are skipped' })
  @ApiOkResponse({ type: SimulationDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({
    description: '`simulation already completed` (or failed, cancelled)',
    type: ErrorBodyDto,
  })
  cancel(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<SimulationDto> {
    return this.simulations.cancel(principal.userId, id);
  }

  @Get(':id/compare/:otherId')
  @ApiOperation({
    summary: 'Compare two completed simulations over the same dataset, ticket by ticket',
    description:
      'Per question, how many tickets changed answer; and how statuses moved (for example accept -> review). Try a draft against the live version before publishing it.',
  })
  @ApiOkResponse({ type: SimulationComparisonDto })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({
    description: '`both simulations must be completed` or `simulations are over different datasets`',
    type: ErrorBodyDto,
  })
  compare(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('otherId') otherId: string,
  ): Promise<SimulationComparisonDto> {
    return this.simulations.compare(principal.userId, id, otherId);
  }

  @Get(':id/export')
  @ApiOperation({
    summary: "The simulation's ticket-level results, as a CSV file",
    description:
      "One row per judged ticket, by its place in the dataset: `position` (0-based; empty for a ticket since deleted from the dataset), `externalId`, `subject` (as judged, redacted), `status`, `evaluationId`, then `answer:<questionId>` for each question of the run's version, in its order: the choice, `true`/`false` or the score (as a dataset's expected answers are written), empty when the judgment gave none. A running simulation gives the tickets judged so far. RFC 4180 with CRLF and a UTF-8 BOM; a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`. See docs/exports.md.",
  })
  @ApiOkResponse(
    csvResponse(
      'The results, as an attachment (`simulation-<id>.csv`).',
      'position,externalId,subject,status,evaluationId,answer:department,answer:abusive\r\n0,T-0,Charged twice,accept,0b7c…,billing,false\r\n',
    ),
  )
  @ApiNotFoundResponse(NOT_FOUND)
  async exportResults(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { simulationId, table } = await this.exports.results(principal.userId, id);
    await sendCsv(reply, `simulation-${simulationId}.csv`, table);
  }

  @Get(':id/compare/:otherId/export')
  @ApiOperation({
    summary: "A comparison's changed tickets, as a CSV file",
    description:
      "The tickets GET /api/simulations/{id}/compare/{otherId} lists in `changedTickets` (status or an answer changed), in the dataset's order: `externalId`, `subject`, `fromStatus`, `toStatus`, then `before:<questionId>` and `after:<questionId>` for every question either run answered (sorted by id, changed or not). Answers are written as in GET /api/simulations/{id}/export. The same 404 and 409 as the comparison. See docs/exports.md.",
  })
  @ApiOkResponse(
    csvResponse(
      'The changed tickets, as an attachment (`simulation-<id>-vs-<otherId>.csv`); a header row alone when nothing changed.',
      'externalId,subject,fromStatus,toStatus,before:department,after:department\r\nT-0,Charged twice,accept,review,billing,technical\r\n',
    ),
  )
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiConflictResponse({
    description: '`both simulations must be completed` or `simulations are over different datasets`',
    type: ErrorBodyDto,
  })
  async exportComparison(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('otherId') otherId: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const { from, to, table } = await this.exports.comparison(principal.userId, id, otherId);
    await sendCsv(reply, `simulation-${from}-vs-${to}.csv`, table);
  }

  @Get(':id/disagreements')
  @ApiOperation({
    summary: "The judged tickets whose answer differs from the dataset's expected answer",
    description:
      "One item per ticket and question of the run's version with an expected answer the model did not give (a failed judgment gives none), by ticket position then question order; at most 500, `total` counts them all. Empty when no ticket carries expected answers.",
  })
  @ApiOkResponse({ type: ExpectedDisagreementPageDto })
  @ApiBadRequestResponse({ description: '`invalid request` (a malformed questionId)', type: ErrorBodyDto })
  @ApiNotFoundResponse(NOT_FOUND)
  disagreements(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Query() query: DisagreementsQueryDto,
  ): Promise<ExpectedDisagreementPageDto> {
    return this.simulations.disagreements(principal.userId, id, query.questionId);
  }
}
