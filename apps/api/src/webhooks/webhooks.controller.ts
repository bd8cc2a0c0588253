import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiCallbacks,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { EndpointTester, WebhookService } from '@app/webhooks';
import { IdempotencyKey } from '../judging/idempotency-key.decorator.js';
import { JudgeRequestDto } from '../judging/judgment.dto.js';
import { RawBody } from './raw-body.js';
import {
  DeliveryPageDto,
  EndpointTestResultDto,
  EventIdDto,
  ListDeliveriesQueryDto,
  RedeliveryDto,
  SavedWebhookEndpointDto,
  SaveWebhookEndpointDto,
  WebhookEndpointDto,
} from './webhooks.dto.js';
import {
  ENDPOINT_TEST,
  EndpointTestEventDto,
  EVALUATION_COMPLETION,
  EvaluationCompletionDto,
  SIMULATION_COMPLETION,
  SimulationCompletionDto,
} from './completion-callbacks.js';

@ApiTags('webhooks')
@ApiExtraModels(EvaluationCompletionDto, SimulationCompletionDto, EndpointTestEventDto)
@Controller('api')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhookService,
    private readonly tester: EndpointTester,
  ) {}

  @Post('webhook-endpoints')
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Save your completion endpoint (one per user; saving again replaces it and issues a new secret)',
  })
  @ApiCreatedResponse({ type: SavedWebhookEndpointDto })
  @ApiBadRequestResponse({
    description: 'Not an absolute http(s) URL, or (in production) a private address',
    type: ErrorBodyDto,
  })
  @ApiCallbacks(EVALUATION_COMPLETION, SIMULATION_COMPLETION)
  saveEndpoint(
    @CurrentPrincipal() principal: Principal,
    @Body() body: SaveWebhookEndpointDto,
  ): Promise<SavedWebhookEndpointDto> {
    return this.webhooks.saveEndpoint(principal.userId, body.url, body.requireInboundSignature);
  }

  @Get('webhook-endpoints')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Your completion endpoint (never its secret)' })
  @ApiOkResponse({ type: [WebhookEndpointDto] })
  listEndpoints(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointDto[]> {
    return this.webhooks.listEndpoints(principal.userId);
  }

  @Delete('webhook-endpoints/:id')
  @HttpCode(204)
  @Authenticated({ permission: 'packs:write' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: '`webhook endpoint not found`', type: ErrorBodyDto })
  deleteEndpoint(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.webhooks.deleteEndpoint(principal.userId, id);
  }

  @Post('webhook-endpoints/:id/test')
  @HttpCode(200)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Send a signed test event to your saved endpoint now and report its answer',
    description:
      'One `endpoint.test` POST, signed like a completion and sent the same way (address guard, no redirects, 10 s limit). Nothing is stored or retried: a receiver that fails is reported here, not as a failed delivery.',
  })
  @ApiOkResponse({ type: EndpointTestResultDto })
  @ApiCallbacks(ENDPOINT_TEST)
  @ApiNotFoundResponse({ description: '`webhook endpoint not found`', type: ErrorBodyDto })
  testEndpoint(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
  ): Promise<EndpointTestResultDto> {
    return this.tester.send(principal.userId, id);
  }

  @Post('webhooks/inbound')
  @HttpCode(202)
  @Authenticated({ permission: 'judgments:run', keyOnly: true })
  @ApiOperation({
    summary: 'Accept a ticket now, judge it afterwards, and POST the signed completion to your endpoint',
    description:
      'Checked before answering: credential, permission, body, signature, pack and live version. The redacted event is stored before the 202. Judging failures show up on the evaluation and the completion, never here.',
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      '1 to 128 characters; its own surface (never collides with /api/judge); a replay returns the first eventId.',
  })
  @ApiHeader({
    name: 'X-Service-Signature',
    required: false,
    description:
      '`sha256=<hex HMAC-SHA256 of the raw body>` with your completion secret; required when the endpoint was saved with requireInboundSignature.',
  })
  @ApiAcceptedResponse({ type: EventIdDto })
  @ApiUnauthorizedResponse({
    description: '`API key required`, `invalid API key` or `invalid signature`',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse({ description: '`pack not found`', type: ErrorBodyDto })
  @ApiConflictResponse({ description: '`pack has no published version`', type: ErrorBodyDto })
  @ApiCallbacks(EVALUATION_COMPLETION)
  inbound(
    @CurrentPrincipal() principal: Principal,
    @Body() body: JudgeRequestDto,
    @RawBody() rawBody: string,
    @Headers('x-service-signature') signature: string | undefined,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<EventIdDto> {
    return this.webhooks.receive(principal.userId, {
      packId: body.packId,
      ticket: body.ticket,
      rawBody,
      signature,
      idempotencyKey,
    });
  }

  @Get('webhook-deliveries')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Completion deliveries, newest first, 50 a page' })
  @ApiOkResponse({ type: DeliveryPageDto })
  listDeliveries(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<DeliveryPageDto> {
    return this.webhooks.listDeliveries(principal.userId, query.status, query.cursor);
  }

  @Post('webhook-deliveries/:id/redeliver')
  @HttpCode(202)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Send a delivery again now: same payload and delivery id, fresh sentAt and signature',
  })
  @ApiAcceptedResponse({ type: RedeliveryDto })
  @ApiNotFoundResponse({ description: '`delivery not found`', type: ErrorBodyDto })
  redeliver(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<RedeliveryDto> {
    return this.webhooks.redeliver(principal.userId, id);
  }
}
