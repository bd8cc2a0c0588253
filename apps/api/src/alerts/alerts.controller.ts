import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { AlertService } from '@app/alerts';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { AlertDto, AlertRulesDto, ListAlertsQueryDto } from './alerts.dto.js';

const PACK_NOT_FOUND = {
  description: "`pack not found` (missing, deleted, or another user's)",
  type: ErrorBodyDto,
};

@ApiTags('alerts')
@Controller('api')
export class AlertsController {
  constructor(private readonly alerts: AlertService) {}

  @Get('packs/:packId/alert-rules')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: "The pack's quality alert rules",
    description:
      'Every rule is on by default with the thresholds shown (docs/alerts.md). The worker checks them on a schedule (ALERT_CHECK_MS) against the live evaluations (sources `api`, `webhook`, `mcp`).',
  })
  @ApiOkResponse({ type: AlertRulesDto })
  @ApiNotFoundResponse(PACK_NOT_FOUND)
  rules(@CurrentPrincipal() principal: Principal, @Param('packId') packId: string): Promise<AlertRulesDto> {
    return this.alerts.rules(principal.userId, packId);
  }

  @Put('packs/:packId/alert-rules')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: "Set the pack's quality alert rules",
    description:
      'Every rule and every field is required; answers the saved rules. The next check applies them: an alert whose rule no longer holds (or was turned off) closes then.',
  })
  @ApiOkResponse({ type: AlertRulesDto })
  @ApiBadRequestResponse({
    description:
      '`invalid request` with `issues`: a rule missing or not an object, a field missing, of the wrong type or out of range, or another field',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse(PACK_NOT_FOUND)
  setRules(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Body() body: AlertRulesDto,
  ): Promise<AlertRulesDto> {
    const { agreementDrift, answerShift, reviewShareJump, gatewayFailureRate } = body;
    return this.alerts.setRules(principal.userId, packId, {
      agreementDrift: { ...agreementDrift },
      answerShift: { ...answerShift },
      reviewShareJump: { ...reviewShareJump },
      gatewayFailureRate: { ...gatewayFailureRate },
    });
  }

  @Get('alerts')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: 'List your quality alerts: open first, then newest (at most 200)',
    description: 'Filter by `packId` and/or `status`. See docs/alerts.md for each rule and its figures.',
  })
  @ApiOkResponse({ type: [AlertDto] })
  @ApiBadRequestResponse({ description: '`invalid request`: an unknown status', type: ErrorBodyDto })
  @ApiNotFoundResponse(PACK_NOT_FOUND)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListAlertsQueryDto): Promise<AlertDto[]> {
    return this.alerts.list(principal.userId, { packId: query.packId, status: query.status });
  }

  @Post('alerts/:id/ack')
  @HttpCode(200)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Acknowledge an alert',
    description:
      'An open alert becomes `acknowledged` (it stays until its condition clears, and is not raised again meanwhile); an acknowledged or closed one is answered unchanged.',
  })
  @ApiOkResponse({ type: AlertDto })
  @ApiNotFoundResponse({ description: "`alert not found` (missing or another user's)", type: ErrorBodyDto })
  acknowledge(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<AlertDto> {
    return this.alerts.acknowledge(principal.userId, id);
  }
}
