import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { JudgeService, toJudgeResponse } from '@app/judging';
import { IdempotencyKey } from './idempotency-key.decorator.js';
import { JudgeRequestDto, JudgeResponseDto } from './judgment.dto.js';

@ApiTags('judging')
@Controller('api/judge')
export class JudgeController {
  constructor(private readonly judge: JudgeService) {}

  @Post()
  @HttpCode(200)
  @Authenticated({ permission: 'judgments:run', keyOnly: true })
  @ApiOperation({
    summary: "Judge one ticket against the pack's published version and wait for the result",
    description: [
      'The ticket is redacted, judged with one model call covering every question, and stored as an evaluation (`source: "api"`).',
      'A gateway or output failure still answers 200: `result.status` is `review` and `reviewReasons` holds the failure kind',
      '(`gateway_auth`, `gateway_unavailable`, `invalid_model_output`, `invalid_pack`, `invalid_ticket`). See docs/judging.md for the decision rule.',
    ].join(' '),
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: [
      '1 to 128 characters, scoped to your user and to this route (the inbound webhook keeps its own), kept 24 hours.',
      'A replay returns the stored evaluation without calling the model. A concurrent request with the same key waits for the first one and returns its evaluation.',
      'Results of kind `gateway_auth` or `gateway_unavailable` do not store the key, so sending it again runs the call again.',
    ].join(' '),
  })
  @ApiOkResponse({ type: JudgeResponseDto })
  @ApiNotFoundResponse({ description: '`pack not found`', type: ErrorBodyDto })
  @ApiConflictResponse({ description: '`pack has no published version`', type: ErrorBodyDto })
  async judgeTicket(
    @CurrentPrincipal() principal: Principal,
    @Body() body: JudgeRequestDto,
    @IdempotencyKey() idempotencyKey?: string,
  ): Promise<JudgeResponseDto> {
    return toJudgeResponse(
      await this.judge.judgeLive(principal.userId, body.packId, body.ticket, 'api', idempotencyKey),
    );
  }
}
