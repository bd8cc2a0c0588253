import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { z } from 'zod';
import { MAX_DATASET_TICKETS, type UploadedTicket } from '@app/datasets';
import { expectedAnswersSchema, ticketSchema, type ExpectedAnswers, type Ticket } from '@app/domain';
import { SchemaDto } from '../errors/schema-body.js';
import { createValidationPipe } from '../errors/validation.pipe.js';
import { TicketDto, TicketMessageDto } from '../judging/ticket.dto.js';
import { csvToTickets, isCsvContentType } from './csv-tickets.js';
import { Omittable } from '../errors/validation-rules.js';

export class CreateDatasetDto {
  @ApiProperty({ minLength: 1, maxLength: 200, example: 'November billing tickets' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name: string;
}

export class DatasetDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_DATASET_TICKETS })
  ticketCount: number;

  @ApiProperty({
    type: 'integer',
    example: MAX_DATASET_TICKETS,
    description: 'The most tickets the dataset holds; an upload that would pass it is refused whole.',
  })
  maxTickets: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class DatasetListDto {
  @ApiProperty({ type: [DatasetDto], description: 'Newest first.' })
  items: DatasetDto[];
}

export class DatasetTicketDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: "0-based place in the dataset's order." })
  position: number;

  @ApiProperty({ type: TicketDto, description: 'The ticket as stored: redacted.' })
  ticket: Ticket;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
    description:
      'Expected answers by question id, as uploaded (not redacted); absent when the upload gave none.',
    example: { department: 'billing', refund_request: true },
  })
  expected?: ExpectedAnswers;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;
}

export class DatasetTicketPageDto {
  @ApiProperty({ type: [DatasetTicketDto], description: 'By position, at most 100.' })
  items: DatasetTicketDto[];

  @ApiProperty({ type: String, nullable: true, description: 'Null on the last page.' })
  nextCursor: string | null;
}

export class ListDatasetTicketsQueryDto {
  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @Omittable()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/** A dataset ticket as uploaded: the ticket's fields and its expected answers by question id. */
const uploadTicketSchema = z.strictObject({
  ...ticketSchema.shape,
  expected: expectedAnswersSchema.optional(),
});

export class UploadTicketDto extends SchemaDto(uploadTicketSchema, { messages: () => TicketMessageDto }) {}

/** Checked by the ticket's one schema, as on the judge route (see errors/schema-body.ts). */
export class UploadTicketsDto extends SchemaDto(
  z.strictObject({ tickets: z.array(uploadTicketSchema).min(1).max(MAX_DATASET_TICKETS) }),
  { tickets: () => UploadTicketDto },
) {}

export class UploadResultDto {
  @ApiProperty({ type: 'integer', description: 'Tickets stored by this upload.' })
  inserted: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Tickets left out because their externalId is in the dataset already, or earlier in this upload.',
  })
  skipped: number;

  @ApiProperty({ type: 'integer', description: 'Tickets in the dataset after it.' })
  total: number;
}

/** An upload as received: parsed JSON, or CSV text, with its content type. */
export interface RawTicketUpload {
  body: unknown;
  contentType: string | undefined;
}

/**
 * The upload body, kept away from the global ValidationPipe (it also carries CSV text) and from
 * Swagger's single-schema `@Body` (the route documents one schema per media type instead).
 */
export const TicketUpload = createParamDecorator((_: unknown, context: ExecutionContext): RawTicketUpload => {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return { body: request.body, contentType: request.headers['content-type'] };
});

/** The global pipe's rules and issue paths, applied by hand because the route also takes CSV. */
const uploadPipe = createValidationPipe();

/**
 * The tickets of an upload, JSON (`{tickets: [...]}`) or CSV (rows as tickets), checked like the
 * judge route's ticket; issues name the row (`tickets.3.customerMessage`).
 */
export async function uploadedTickets({ body, contentType }: RawTicketUpload): Promise<UploadedTicket[]> {
  const upload = isCsvContentType(contentType)
    ? { tickets: csvToTickets(typeof body === 'string' ? body : '') }
    : body;
  await uploadPipe.transform(upload, { type: 'body', metatype: UploadTicketsDto });
  // Whitelisting refused any unknown field, so the plain objects are exactly the valid tickets.
  return (upload as { tickets: UploadedTicket[] }).tickets;
}

export class DatasetTemplateQueryDto {
  @ApiPropertyOptional({
    enum: ['live', 'draft'],
    description:
      "Whose questions name the expected-answer columns: the live version's or the draft's. Default: the live version, or the draft when none is published.",
  })
  @Omittable()
  @IsIn(['live', 'draft'])
  version?: 'live' | 'draft';
}
