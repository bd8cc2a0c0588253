import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { ticketSchema } from '@app/domain';
import { SchemaDto } from '../errors/schema-body.js';
import { packIdField } from './judge-body.schema.js';
import { JudgeResponseDto } from './judgment.dto.js';
import { TicketDto } from './ticket.dto.js';

/** The judge body plus an optional version; it carries a ticket, so it shares the ticket's schema. */
export const playgroundBodySchema = z.strictObject({
  packId: packIdField,
  packVersionId: z
    .string()
    .meta({
      format: 'uuid',
      description: 'Judge with this version of the pack, the draft included; the live version when absent.',
    })
    .optional(),
  ticket: ticketSchema,
});

export class PlaygroundJudgeRequestDto extends SchemaDto(playgroundBodySchema, { ticket: () => TicketDto }) {}

export class PlaygroundJudgeResponseDto extends JudgeResponseDto {
  @ApiProperty({ type: TicketDto, description: 'The ticket as the model saw it and as stored: redacted.' })
  redactedTicket: TicketDto;
}
