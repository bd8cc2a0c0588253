import { ticketMessageSchema, ticketSchema } from '@app/domain';
import { SchemaDto } from '../errors/schema-body.js';

/** The ticket's OpenAPI schemas, derived from its one definition in the domain (see schema-body.ts). */
export class TicketMessageDto extends SchemaDto(ticketMessageSchema) {}

export class TicketDto extends SchemaDto(ticketSchema, { messages: () => TicketMessageDto }) {}
