import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { PlaygroundJudge, toJudgeResponse } from '@app/judging';
import { PlaygroundJudgeRequestDto, PlaygroundJudgeResponseDto } from './playground.dto.js';
import { PlaygroundLimiter } from './playground-limiter.js';

/** The web app's playground: `/api/judge` takes API keys only, so the app judges through here. */
@ApiTags('playground')
@Controller('app/playground')
export class PlaygroundController {
  constructor(
    private readonly playground: PlaygroundJudge,
    private readonly limiter: PlaygroundLimiter,
  ) {}

  @Post('judge')
  @HttpCode(200)
  @Authenticated({ sessionOnly: true })
  @ApiOperation({
    summary: 'Judge one ticket from the app (session only)',
    description: [
      'The same judging as `POST /api/judge` (redaction, one model call, the decision rule), stored as an evaluation with `source: "playground"`.',
      'With `packVersionId`, any version of the pack is used, the draft included, so a draft can be tried before it is published.',
      'No idempotency key: every call is a new evaluation. The answer adds the redacted ticket.',
      'Each user may judge `API_RATE_LIMIT_PER_DAY` tickets here per 24 hours (the budget of one API key); past it, 429 `rate limit exceeded` with `Retry-After`.',
    ].join(' '),
  })
  @ApiOkResponse({ type: PlaygroundJudgeResponseDto })
  @ApiTooManyRequestsResponse({
    description: '`rate limit exceeded` (per user, see Retry-After)',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse({ description: '`pack not found` or `version not found`', type: ErrorBodyDto })
  @ApiConflictResponse({
    description: '`pack has no published version` (without `packVersionId`)',
    type: ErrorBodyDto,
  })
  async judgeTicket(
    @CurrentPrincipal() principal: Principal,
    @Body() body: PlaygroundJudgeRequestDto,
  ): Promise<PlaygroundJudgeResponseDto> {
    await this.limiter.take(principal.userId);
    const evaluation = await this.playground.judge(
      principal.userId,
      body.packId,
      body.ticket,
      body.packVersionId,
    );
    return { ...toJudgeResponse(evaluation), redactedTicket: evaluation.redactedTicket };
  }
}
