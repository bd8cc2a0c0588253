import { z } from 'zod';
import { ticketSchema } from '@app/domain';

/** A pack id: documented as a UUID, but any other string is simply "pack not found" (404). */
export const packIdField = z.string().min(1).meta({ format: 'uuid' });

/**
 * The body of POST /api/judge and of the inbound webhook, defined once: its type, validation,
 * issues and OpenAPI schema all come from here (see errors/schema-body.ts).
 */
export const judgeBodySchema = z.strictObject({ packId: packIdField, ticket: ticketSchema });
