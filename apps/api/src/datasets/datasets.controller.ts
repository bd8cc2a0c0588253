import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { DatasetService } from '@app/datasets';
import { ACCEPTS_CSV } from './csv-tickets.js';
import {
  CreateDatasetDto,
  DatasetDto,
  DatasetListDto,
  DatasetTicketPageDto,
  ListDatasetTicketsQueryDto,
  UploadResultDto,
  TicketUpload,
  UploadTicketsDto,
  uploadedTickets,
  type RawTicketUpload,
} from './datasets.dto.js';

const NOT_FOUND = {
  description: "`dataset not found` (missing, deleted, or another user's)",
  type: ErrorBodyDto,
};

const TICKET_NOT_FOUND = {
  description: "`dataset not found`, or `ticket not found` (not in this dataset, or another user's)",
  type: ErrorBodyDto,
};

const CSV_FORMAT = [
  'CSV (`Content-Type: text/csv`, UTF-8, a leading BOM is allowed): a header row, then one ticket per row.',
  'The header must contain `subject` and `customerMessage`; `externalId` is optional; a column `expected:<questionId>` holds the expected answer to that question (GET /api/packs/{packId}/dataset-template writes the header for a pack); every other column becomes a string in `metadata`.',
  'Empty cells are left out (an empty `subject` or `customerMessage` is a validation issue).',
  'Fields with commas, quotes or line breaks are quoted with `"` (a quote inside is doubled); every row has as many fields as the header; blank lines are skipped.',
  'Rows are numbered from 0 after the header, so an issue path `tickets.3.subject` names the fourth data row.',
].join(' ');

const CSV_EXAMPLE =
  'externalId,subject,customerMessage,plan\nZD-1,Charged twice,"Hi, I was billed twice.",pro\n';

@ApiTags('datasets')
@Controller('api/datasets')
export class DatasetsController {
  constructor(private readonly datasets: DatasetService) {}

  @Post()
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Create an empty dataset' })
  @ApiCreatedResponse({ type: DatasetDto })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateDatasetDto): Promise<DatasetDto> {
    return this.datasets.create(principal.userId, body.name);
  }

  @Get()
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'List your datasets, newest first' })
  @ApiOkResponse({ type: DatasetListDto })
  async list(@CurrentPrincipal() principal: Principal): Promise<DatasetListDto> {
    return { items: await this.datasets.list(principal.userId) };
  }

  @Get(':datasetId')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({ summary: 'Read a dataset' })
  @ApiOkResponse({ type: DatasetDto })
  @ApiNotFoundResponse(NOT_FOUND)
  get(@CurrentPrincipal() principal: Principal, @Param('datasetId') datasetId: string): Promise<DatasetDto> {
    return this.datasets.get(principal.userId, datasetId);
  }

  @Get(':datasetId/tickets')
  @Authenticated({ permission: 'packs:read' })
  @ApiOperation({
    summary: "A dataset's stored (redacted) tickets in upload order, at most 100 a page",
    description:
      'Each item is `{id, position, ticket, createdAt}`; `position` counts from 0 in upload order.',
  })
  @ApiOkResponse({ type: DatasetTicketPageDto })
  @ApiBadRequestResponse({
    description: '`invalid cursor` (malformed, or from another dataset or user)',
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse(NOT_FOUND)
  listTickets(
    @CurrentPrincipal() principal: Principal,
    @Param('datasetId') datasetId: string,
    @Query() query: ListDatasetTicketsQueryDto,
  ): Promise<DatasetTicketPageDto> {
    return this.datasets.listTickets(principal.userId, datasetId, query.cursor);
  }

  @Delete(':datasetId')
  @HttpCode(204)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({ summary: 'Delete a dataset: gone for every dataset route' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse(NOT_FOUND)
  delete(@CurrentPrincipal() principal: Principal, @Param('datasetId') datasetId: string): Promise<void> {
    return this.datasets.delete(principal.userId, datasetId);
  }

  @Delete(':datasetId/tickets/:ticketId')
  @HttpCode(204)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Delete one ticket of a dataset',
    description:
      'The tickets after it move up a place (positions stay 0 to n-1) and `ticketCount` goes down by one. Refused while a queued or running simulation reads the dataset.',
  })
  @ApiNoContentResponse()
  @ApiNotFoundResponse(TICKET_NOT_FOUND)
  @ApiConflictResponse({
    description: '`dataset has a simulation in progress` (cancel it or let it finish first)',
    type: ErrorBodyDto,
  })
  deleteTicket(
    @CurrentPrincipal() principal: Principal,
    @Param('datasetId') datasetId: string,
    @Param('ticketId') ticketId: string,
  ): Promise<void> {
    return this.datasets.deleteTicket(principal.userId, datasetId, ticketId);
  }

  @Post(':datasetId/tickets')
  @HttpCode(200)
  @RouteConfig(ACCEPTS_CSV)
  @Authenticated({ permission: 'packs:write' })
  @ApiOperation({
    summary: 'Upload tickets to a dataset, as JSON or CSV',
    description: [
      'Every ticket is validated like the ticket of `POST /api/judge`; failures are 400 `invalid request` with issues naming the row (`tickets.3.customerMessage`).',
      'Tickets are redacted before they are stored (expected answers are kept as given). A ticket whose `externalId` the dataset holds already, or an earlier ticket of the upload holds, is skipped and counted in `skipped`; tickets without one are always added.',
      'A dataset holds at most 250 tickets, counted with those already stored and without the skipped ones:',
      'an upload that would exceed it is refused whole (nothing of it is stored), also when uploads race.',
    ].join(' '),
    requestBody: {
      required: true,
      description: `JSON: \`{tickets: [...]}\` with 1 to 250 tickets, each a Ticket with optional \`expected\` answers by question id (a choice value, a boolean or a score). ${CSV_FORMAT}`,
      content: {
        'application/json': { schema: { $ref: getSchemaPath(UploadTicketsDto) } },
        'text/csv': {
          schema: { type: 'string', description: CSV_FORMAT },
          example: CSV_EXAMPLE,
        },
      },
    },
  })
  @ApiExtraModels(UploadTicketsDto)
  @ApiOkResponse({ type: UploadResultDto })
  @ApiBadRequestResponse({
    description: [
      '`invalid request` with issues naming the row; `invalid JSON`;',
      '`dataset would exceed 250 tickets (N stored, M uploaded)`;',
      '`CSV header must contain subject and customerMessage` (or an empty or repeated column name, or an `expected:` column without a valid question id);',
      '`invalid CSV at line N: <reason>` for a malformed CSV (unclosed quote, a row with a different number of fields, a NUL character).',
    ].join(' '),
    type: ErrorBodyDto,
  })
  @ApiNotFoundResponse(NOT_FOUND)
  @ApiPayloadTooLargeResponse({ description: '`request body too large`', type: ErrorBodyDto })
  @ApiUnsupportedMediaTypeResponse({
    description: '`unsupported media type` (neither JSON nor CSV)',
    type: ErrorBodyDto,
  })
  async upload(
    @CurrentPrincipal() principal: Principal,
    @Param('datasetId') datasetId: string,
    @TicketUpload() upload: RawTicketUpload,
  ): Promise<UploadResultDto> {
    return this.datasets.upload(principal.userId, datasetId, await uploadedTickets(upload));
  }
}
