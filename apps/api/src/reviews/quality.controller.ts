import { Controller, Get, Param, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { QualityService } from '@app/reviews';
import { QualityDto, QualityQueryDto } from './quality.dto.js';

@ApiTags('reviews')
@Controller('api')
export class QualityController {
  constructor(private readonly quality: QualityService) {}

  @Get('packs/:packId/quality')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'How often the judge is right on live traffic, with intervals, from the audit sample',
    description: [
      "Over a pack version's live evaluations (sources api, webhook and mcp) in a window of whole UTC days (the last 30 by default):",
      'the counts; `autoDecisionAccuracy`, the share of automatic decisions the reviewers agree with; and per question the agreement',
      "and each answer's share, the judge's raw `judgeShare` and `correctedShare`, corrected for the judge's errors (prediction-powered inference).",
      'Only labels on evaluations selected by the audit draw count, each weighted by 1/π, so the estimates are unbiased; labels given outside',
      'the draw (the review queue) are not a random sample and are left out. An estimate the labels cannot support is null, with `labels`',
      'saying how many exist. See docs/quality.md.',
    ].join(' '),
  })
  @ApiOkResponse({ type: QualityDto })
  @ApiBadRequestResponse({
    description:
      '`invalid request` (a malformed day or confidence), `from must not be later than to`, or a window over 366 days',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse({ description: '`pack not found` or `version not found`', type: ErrorBodyDto })
  @ApiConflictResponse({
    description: '`pack has no published version` (when no versionId is given)',
    type: ErrorBodyDto,
  })
  estimate(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Query() query: QualityQueryDto,
  ): Promise<QualityDto> {
    return this.quality.estimate(principal.userId, packId, {
      ...query,
      confidence: query.confidence ?? 0.95,
    });
  }
}
