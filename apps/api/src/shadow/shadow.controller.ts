import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { ShadowService } from '@app/shadow';
import { ShadowRunDetailDto, ShadowRunDto, ShadowRunListDto, StartShadowRunDto } from './shadow.dto.js';

const RUN_NOT_FOUND = { description: '`shadow run not found`', type: ErrorBodyDto };

@ApiTags('shadow runs')
@Controller('api')
export class ShadowController {
  constructor(private readonly shadows: ShadowService) {}

  @Post('packs/:packId/shadow-runs')
  @Authenticated({ permission: 'packs:write' })
  @HttpCode(201)
  @ApiOperation({
    summary: "Judge a sample of the pack's live traffic again with another version",
    description:
      "While the run is active, each live evaluation of the pack (source `api`, `webhook` or `mcp`) is drawn with probability `sampleRate` and judged again by the run's version on the worker, off the request's path, at low priority on its own queue, from its redacted ticket as stored. Nothing live changes: shadow judgments never appear in /api/evaluations, stats or the review queue. GET /api/shadow-runs/{id} gives the report. One active run per pack. See docs/shadow-runs.md.",
  })
  @ApiCreatedResponse({ type: ShadowRunDto })
  @ApiBadRequestResponse({ description: 'An invalid body', type: ErrorBodyDto })
  @ApiNotFoundResponse({ description: '`pack not found` or `version not found`', type: ErrorBodyDto })
  @ApiConflictResponse({ description: '`shadow run already active`', type: ErrorBodyDto })
  start(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Body() body: StartShadowRunDto,
  ): Promise<ShadowRunDto> {
    return this.shadows.start(principal.userId, packId, body);
  }

  @Get('packs/:packId/shadow-runs')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: "The pack's shadow runs, newest first" })
  @ApiOkResponse({ type: ShadowRunListDto })
  @ApiNotFoundResponse({ description: '`pack not found`', type: ErrorBodyDto })
  async list(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
  ): Promise<ShadowRunListDto> {
    return { items: await this.shadows.list(principal.userId, packId) };
  }

  @Get('shadow-runs/:id')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: 'One shadow run with its report',
    description:
      'The report is computed from the judgments recorded so far: status changes, per question the answer-flip matrix with the evaluations behind each cell, the review share on both sides, agreement with reviewer labels with intervals, tokens and latency.',
  })
  @ApiOkResponse({ type: ShadowRunDetailDto })
  @ApiNotFoundResponse(RUN_NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ShadowRunDetailDto> {
    return this.shadows.get(principal.userId, id);
  }

  @Post('shadow-runs/:id/stop')
  @Authenticated({ permission: 'packs:write' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Stop a shadow run; its report is kept',
    description:
      'Evaluations drawn but not yet judged are dropped. Stopping a stopped run answers it as it is.',
  })
  @ApiOkResponse({ type: ShadowRunDetailDto })
  @ApiNotFoundResponse(RUN_NOT_FOUND)
  stop(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ShadowRunDetailDto> {
    return this.shadows.stop(principal.userId, id);
  }
}
