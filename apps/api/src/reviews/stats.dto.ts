import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { EvaluationSource } from '@app/domain';
import { CostSumDto } from '../judging/cost.dto.js';
import { ShareEstimateDto } from './quality.dto.js';
import { SourceFilter } from './source-filter.js';

export class StatsQueryDto {
  @SourceFilter(
    'Count only evaluations of these sources in `evaluationsToday`, `byStatus`, `avgLatencyMs`, `tokens`, `daily`, `reviewsToLabel` and `cost` (recent runs and webhook failures are the same either way).',
  )
  source?: EvaluationSource[];
}

// The dashboard's figures (`GET /api/stats`, MCP `get_stats`), as StatsService computes them.

class DailyDto {
  @ApiProperty({ example: '2026-11-21', description: 'UTC date' })
  date: string;

  @ApiProperty()
  accept: number;

  @ApiProperty()
  review: number;

  @ApiProperty()
  reject: number;
}

class ByStatusDto {
  @ApiProperty()
  accept: number;

  @ApiProperty()
  review: number;

  @ApiProperty()
  reject: number;
}

class TokensDto {
  @ApiProperty()
  input: number;

  @ApiProperty()
  output: number;
}

class RecentRunDto {
  @ApiProperty()
  id: string;

  @ApiProperty()
  status: string;

  @ApiProperty()
  packId: string;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Its name; null when none was given.' })
  name?: string | null;

  @ApiPropertyOptional()
  packName?: string;

  @ApiPropertyOptional()
  datasetName?: string;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: "Its pack version's number (publication order); null while that version is the draft.",
  })
  packVersionNumber?: number | null;

  @ApiPropertyOptional({ description: "Whether its pack version is the pack's live version now." })
  packVersionLive?: boolean;
}

class WebhookFailureDto {
  @ApiProperty()
  id: string;

  @ApiProperty()
  evaluationId: string;

  @ApiProperty({ type: 'integer' })
  lastStatusCode: number;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

class PackQualityDto {
  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty()
  packName: string;

  @ApiProperty({ format: 'uuid', description: 'The live version the figures are of.' })
  versionId: string;

  @ApiProperty({ type: ShareEstimateDto })
  autoDecisionAccuracy: ShareEstimateDto;

  @ApiProperty({
    description:
      'About how many more audit labels the interval needs to be at most ±5 points (0 when it is): the labels times the square of the half-width over 0.05, less the labels there are; 385 at 95% with none.',
  })
  auditLabelsForFivePoints: number;
}

class PackCostDto extends CostSumDto {
  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty()
  packName: string;

  @ApiProperty({ description: 'The pack was deleted since; what it spent stays counted.' })
  packDeleted: boolean;

  @ApiProperty({ type: 'integer', description: "The pack's evaluations that day." })
  evaluations: number;
}

class CostDayDto extends CostSumDto {
  @ApiProperty({
    example: '2026-11-21',
    description: 'UTC date; `costUsd` and `unknownCostEvaluations` are its packs’ sums.',
  })
  date: string;

  @ApiProperty({
    type: [PackCostDto],
    description:
      'The packs with evaluations that day (deleted packs included), by pack id; empty on a day without any.',
  })
  packs: PackCostDto[];
}

class CostDto {
  @ApiProperty({ type: CostSumDto, description: "Today's evaluations (UTC)." })
  today: CostSumDto;

  @ApiProperty({
    type: [CostDayDto],
    description: 'The same 30 UTC days as `daily`, oldest first, zeros included.',
  })
  days: CostDayDto[];
}

export class StatsDto {
  @ApiProperty({ description: 'Evaluations created today (UTC).' })
  evaluationsToday: number;

  @ApiProperty({ type: ByStatusDto, description: "Today's evaluations by status." })
  byStatus: ByStatusDto;

  @ApiProperty({ description: "Mean latencyMs of today's evaluations (0 without any)." })
  avgLatencyMs: number;

  @ApiProperty({ type: TokensDto, description: "Tokens of today's evaluations." })
  tokens: TokensDto;

  @ApiProperty({
    type: [RecentRunDto],
    description: 'The 5 newest simulations.',
  })
  recentRuns: RecentRunDto[];

  @ApiProperty({
    type: [WebhookFailureDto],
    description:
      'The 5 most recently updated failed completion deliveries of evaluations (`lastStatusCode` 0: no response).',
  })
  recentWebhookFailures: WebhookFailureDto[];

  @ApiProperty({ description: 'Evaluations in `review` with no label (all time).' })
  reviewsToLabel: number;

  @ApiProperty({ description: 'Completion deliveries of evaluations currently failed.' })
  webhookFailureCount: number;

  @ApiProperty({ type: [DailyDto], description: 'The last 30 UTC days, oldest first, zeros included.' })
  daily: DailyDto[];

  @ApiPropertyOptional({
    type: [PackQualityDto],
    description:
      "The dashboard's Quality card: each live pack with the audit on (at most 5, most recently changed first), how often reviewers agree with its automatic decisions over the live version's last 30 days, at 95% (GET /api/packs/{packId}/quality has the rest). Live traffic only, whatever `source` says. Not in the contract: clients should accept its absence.",
  })
  quality?: PackQualityDto[];

  @ApiPropertyOptional({
    type: CostDto,
    description:
      'What the evaluations cost, in USD: today, and per UTC day and pack over the 30 days. Each evaluation costs its tokens at its model’s price in `MODEL_PRICES` (no price ships; `local-lexical-1` costs 0). A model without a price makes the cost unknown, not 0: such evaluations are counted in `unknownCostEvaluations` and left out of `costUsd`, so wherever that count is above 0, `costUsd` is a lower bound. Not in the contract: clients should accept its absence.',
  })
  cost?: CostDto;
}
