import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import {
  CalibrationFitService,
  CalibrationService,
  LabelExports,
  LabelService,
  ReviewService,
  StatsService,
} from '@app/reviews';
import { csvResponse, sendCsv } from '../exports/csv-export.js';
import { LabelDto } from '../judging/judgment.dto.js';
import { CalibrationFitDto } from './calibration-fit.dto.js';
import {
  CalibrationDto,
  CalibrationQueryDto,
  CreateLabelDto,
  ExportLabelsQueryDto,
  ListReviewsQueryDto,
  ReviewPageDto,
  ThresholdPreviewDto,
  ThresholdPreviewQueryDto,
} from './reviews.dto.js';
import { StatsDto, StatsQueryDto } from './stats.dto.js';

@ApiTags('reviews')
@Controller('api')
export class ReviewsController {
  constructor(
    private readonly reviews: ReviewService,
    private readonly labels: LabelService,
    private readonly stats: StatsService,
    private readonly calibration: CalibrationService,
    private readonly labelExports: LabelExports,
    private readonly calibrationFits: CalibrationFitService,
  ) {}

  @Get('reviews')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'The review queue: evaluations in `review`, newest first, at most 50 a page',
    description: [
      'Every source by default; `source` narrows the queue to some (the web app shows live traffic, `api`, `webhook` and `mcp`, unless asked to include the playground and simulations). `total` counts the whole queue for the filters, up to 1,000 (`totalCapped`). A cursor holds only the position: send the same filters, queue and order with it (one of another queue or order is `invalid cursor`).',
      '',
      '`queue=audit` lists the audit queue instead: the evaluations with status `accept` or `reject` that the audit draw selected (`auditSelected` true; see PUT /api/packs/{packId}/audit), with the same filters, cursor and total. Label them with the label routes. Left out, or `queue=review`: the review queue, as before.',
      '',
      "`order=value` orders the queue by the expected value of a label, highest first: v = (1 − p_min) / (1 + n), where p_min is the lowest selected probability of the evaluation's answers (`selectedProbabilities`) and n the number of labels the question at p_min (of several there, the one with the fewest labels, then the first id) already has on evaluations of the same pack version; v = 0 for an evaluation without answers. Ties: newest first, then by id. Values move as labels arrive, so a page reflects the labels at the time it is read. Left out, or `order=newest`: newest first. See docs/reviews.md.",
    ].join('\n'),
  })
  @ApiOkResponse({ type: ReviewPageDto })
  @ApiBadRequestResponse({
    description:
      "`invalid cursor` (malformed, another user's, or of another queue or order) or `invalid request` naming a bad filter, `queue` or `order`",
    type: ErrorBodyDto,
  })
  list(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ListReviewsQueryDto,
  ): Promise<ReviewPageDto> {
    const { cursor, labeled, source, queue, order, ...filter } = query;
    return this.reviews.list(
      principal.userId,
      { ...filter, sources: source, labeled: labeled === undefined ? undefined : labeled === 'true' },
      { queue, order, cursor },
    );
  }

  @Post('evaluations/:id/labels')
  @Authenticated({ permission: 'labels:write' })
  @ApiOperation({
    summary:
      'Label one question of an evaluation (201); labeling the same question again replaces the label (200)',
    description:
      '`agreement` is computed: the same choice, the same boolean side, the same score as the model; false when the model gave no answer.',
  })
  @ApiCreatedResponse({ type: LabelDto })
  @ApiOkResponse({ type: LabelDto, description: 'Replaced the label for that question' })
  @ApiBadRequestResponse({
    description: '`label does not fit: ...` naming what does not fit',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse({ description: '`evaluation not found`', type: ErrorBodyDto })
  async label(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CreateLabelDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<LabelDto> {
    const { label, created } = await this.labels.put(principal.userId, id, body);
    reply.status(created ? 201 : 200);
    return label;
  }

  @Get('labels/export')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'Every label you gave, as a CSV file',
    description:
      "Newest first, streamed as the client reads; `packId` and `packVersionId` narrow it to the labeled evaluations of a pack or a version (an unknown id gives a header row alone). Columns: `evaluationId`, `questionId`, `label` (your answer), `judgeAnswer` (the model's, empty when it gave none), `agreement` (`true`/`false`), `note`, `createdAt`, `packId`, `packVersionId`. Answers are the choice, `true`/`false` or the score. RFC 4180 with CRLF and a UTF-8 BOM; a text cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`. See docs/exports.md.",
  })
  @ApiOkResponse(
    csvResponse(
      'The labels, as an attachment (`labels.csv`).',
      'evaluationId,questionId,label,judgeAnswer,agreement,note,createdAt,packId,packVersionId\r\n',
    ),
  )
  @ApiBadRequestResponse({
    description: '`invalid request`: an unknown or malformed parameter',
    type: ErrorBodyDto,
  })
  async exportLabels(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ExportLabelsQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await sendCsv(reply, 'labels.csv', this.labelExports.export(principal.userId, query));
  }

  @Delete('evaluations/:id/labels/:labelId')
  @HttpCode(204)
  @Authenticated({ permission: 'labels:write' })
  @ApiOperation({ summary: 'Delete a label' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: '`label not found`', type: ErrorBodyDto })
  unlabel(
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Param('labelId') labelId: string,
  ): Promise<void> {
    return this.labels.delete(principal.userId, id, labelId);
  }

  @Get('stats')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'Your dashboard figures',
    description:
      "Days are UTC. `evaluationsToday`, `byStatus`, `avgLatencyMs` and `tokens` cover today; `daily` the last 30 days, oldest first, zeros included; `reviewsToLabel` counts evaluations in `review` with no label. Every source counts by default; `source` counts only some (the web app's dashboard shows live traffic: `api`, `webhook`, `mcp`). Read from per-day counters kept by the database (per source too), so it stays fast as evaluations grow.",
  })
  @ApiOkResponse({ type: StatsDto })
  @ApiBadRequestResponse({ description: '`invalid request`: an unknown `source`', type: ErrorBodyDto })
  getStats(@CurrentPrincipal() principal: Principal, @Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.stats.forUser(principal.userId, new Date(), query.source);
  }

  @Get('packs/:packId/calibration')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'Per-question calibration of a pack version from its labels',
    description: [
      "For each question: labeled count; agreement rate (labels equal to the model answer / labeled); Cohen's kappa (choice and boolean)",
      '= (p_o - p_e) / (1 - p_e) with p_e = sum_k p_model(k) p_label(k); a confusion matrix (model answer x label); a reliability table',
      '(model selected probability in 10 bins of 0.1 vs observed agreement); the suggested minSelectedProbability: the lowest threshold t among',
      "the labeled answers' selected probabilities such that the labeled answers with probability >= t agree at least `targetAgreement`;",
      "and the share of the version's evaluations whose selected probability is below it. See docs/reviews.md.",
    ].join(' '),
  })
  @ApiOkResponse({ type: CalibrationDto })
  @ApiNotFoundResponse({ description: '`pack not found` or `version not found`', type: ErrorBodyDto })
  @ApiConflictResponse({
    description: '`pack has no published version` (when no versionId is given)',
    type: ErrorBodyDto,
  })
  calibrate(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Query() query: CalibrationQueryDto,
  ): Promise<CalibrationDto> {
    return this.calibration.calibrate(
      principal.userId,
      packId,
      query.versionId,
      query.targetAgreement ?? 0.95,
      query.delta ?? 0.1,
    );
  }

  @Post('packs/:packId/calibration/fit')
  @HttpCode(200)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: "Fit every question's calibration map of the pack's live version now",
    description: [
      "For each question of the live version: a map from the judge's selected probability to the chance that a reviewer agrees,",
      'fitted from the labels on evaluations of every published version of the pack whose question has the same id and the same',
      'wording (everything but `id` and `review`), each weighted by 1/π when its evaluation was selected for audit and 1 otherwise;',
      'Platt scaling below 1,000 labels, isotonic regression from there. A question with fewer than `minLabels` labels gets no map',
      '(`map` null) and keeps its raw probability. The worker also refits on its own: after 20 new labels, or a day after the last',
      'fit when any label came since. Evaluation reads then carry `calibrated` and `calibratedWith`; questions with',
      '`review.useCalibrated` are decided by it. See docs/quality.md, "Calibration".',
    ].join(' '),
  })
  @ApiOkResponse({ type: CalibrationFitDto })
  @ApiNotFoundResponse({
    description: "`pack not found` (missing, deleted, or another user's)",
    type: ErrorBodyDto,
  })
  @ApiConflictResponse({ description: '`pack has no published version`', type: ErrorBodyDto })
  fitCalibration(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
  ): Promise<CalibrationFitDto> {
    return this.calibrationFits.fit(principal.userId, packId);
  }

  @Get('packs/:packId/threshold-preview')
  @Authenticated({ permission: 'judgments:read' })
  @ApiOperation({
    summary: 'What a review threshold would have done to the last 30 days of live traffic',
    description:
      "Of the pack's live evaluations (sources api, webhook and mcp; every version) of the last 30 days that stored a selected probability for `questionId`: how many, how many are below `threshold`, and their share, which is the share of tickets this question alone would have sent to review at that `minSelectedProbability` (the decision rule: below goes to review, equal passes). Evaluations written before selected probabilities were stored are not counted. The draft editor shows it beside the threshold.",
  })
  @ApiOkResponse({ type: ThresholdPreviewDto })
  @ApiBadRequestResponse({
    description:
      '`invalid request`: `questionId` or `threshold` missing or malformed (threshold outside 0..1)',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse({
    description: "`pack not found` (missing, deleted, or another user's)",
    type: ErrorBodyDto,
  })
  previewThreshold(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Query() query: ThresholdPreviewQueryDto,
  ): Promise<ThresholdPreviewDto> {
    return this.calibration.previewThreshold(principal.userId, packId, query.questionId, query.threshold);
  }
}
