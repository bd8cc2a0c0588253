import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { DatasetService } from '@app/datasets';
import { datasetTemplateCsv, templateFileName } from './csv-tickets.js';
import { DatasetTemplateQueryDto } from './datasets.dto.js';

/** The CSV template a dataset upload takes for a pack (under /api/packs, beside the pack it is for). */
@ApiTags('datasets')
@Controller('api/packs')
export class DatasetTemplateController {
  constructor(private readonly datasets: DatasetService) {}

  @Get(':packId/dataset-template')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary:
      "A CSV template for a dataset to judge with this pack, with a column per question's expected answer",
    description:
      'A header row alone: `externalId,subject,customerMessage`, then `expected:<questionId>` for each question of the live version (or, with `version=draft` or when nothing is published, of the draft), in its order. Fill in a row per ticket and upload it to POST /api/datasets/{datasetId}/tickets.',
  })
  @ApiOkResponse({
    description: 'The template, as an attachment.',
    content: {
      'text/csv': {
        schema: { type: 'string' },
        example: 'externalId,subject,customerMessage,expected:department,expected:refund_request\r\n',
      },
    },
  })
  @ApiNotFoundResponse({
    description: "`pack not found` (missing, deleted, or another user's)",
    type: ErrorBodyDto,
  })
  @ApiConflictResponse({
    description: '`pack has no published version` (with `version=live`)',
    type: ErrorBodyDto,
  })
  async template(
    @CurrentPrincipal() principal: Principal,
    @Param('packId') packId: string,
    @Query() query: DatasetTemplateQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const template = await this.datasets.template(principal.userId, packId, query.version);
    void reply.headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${templateFileName(template.packName)}"`,
    });
    return datasetTemplateCsv(template.questionIds);
  }
}
