import { z } from 'zod';

/**
 * Bounds of one ticket, checked before anything else reads it: redaction, the prompt and storage
 * work on at most this much. Text beyond the judge's own limit (32,000 characters in all) is
 * accepted and judged as `invalid_ticket`, so the caps here are generous.
 */
export const TICKET_LIMITS = {
  externalId: 256,
  subject: 1_000,
  text: 100_000,
  messages: 200,
  metadataEntries: 50,
  metadataKey: 100,
  metadataString: 2_000,
} as const;

export const TICKET_ROLES = ['customer', 'agent', 'system'] as const;

/**
 * A date-time as the API documents it. The API checks it as a strict ISO 8601 date (its JSON
 * schema validator gives the `date-time` format that meaning); zod's own parse is never used.
 */
const dateTime = z.string().meta({ format: 'date-time' });

export const ticketMessageSchema = z.strictObject({
  role: z.enum(TICKET_ROLES),
  text: z.string().max(TICKET_LIMITS.text),
  at: dateTime.optional(),
});

const metadataValue = z
  .union([z.string().max(TICKET_LIMITS.metadataString), z.number(), z.boolean()])
  .nullable();

/**
 * A support ticket as the spec defines it, and the one definition of its fields: the domain type,
 * the API's validation and its OpenAPI schema all derive from it. Stored only in redacted form.
 */
export const ticketSchema = z.strictObject({
  externalId: z
    .string()
    .min(1)
    .max(TICKET_LIMITS.externalId)
    .meta({ description: "The caller's own ticket id. It is not an idempotency key." })
    .optional(),
  subject: z
    .string()
    .min(1)
    .max(TICKET_LIMITS.subject)
    .meta({ example: 'Charged twice for my subscription' }),
  customerMessage: z
    .string()
    .min(1)
    .max(TICKET_LIMITS.text)
    .meta({ example: 'Hi, I was billed twice this month. Can you refund one of the payments?' }),
  messages: z.array(ticketMessageSchema).max(TICKET_LIMITS.messages).optional(),
  /** Flat: values are strings, numbers, booleans or null, never nested objects or arrays. */
  metadata: z
    .record(z.string().max(TICKET_LIMITS.metadataKey), metadataValue)
    .meta({ maxProperties: TICKET_LIMITS.metadataEntries, example: { plan: 'pro', seats: 12 } })
    .optional(),
  createdAt: dateTime.optional(),
});

export type Ticket = z.infer<typeof ticketSchema>;
export type TicketMessage = z.infer<typeof ticketMessageSchema>;
export type TicketRole = TicketMessage['role'];
export type MetadataValue = z.infer<typeof metadataValue>;
