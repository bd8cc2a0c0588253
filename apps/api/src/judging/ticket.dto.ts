import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsIn,
  IsISO8601,
  IsObject,
  IsString,
  MaxLength,
  MinLength,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import type { MetadataValue, TicketRole } from '@app/domain';
import { FAST } from '../errors/fast-accept.js';
import { IsNestedObjects, Omittable } from '../errors/validation-rules.js';

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

function isFlatMetadata(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= TICKET_LIMITS.metadataEntries &&
    entries.every(
      ([key, v]) =>
        key.length <= TICKET_LIMITS.metadataKey &&
        (v === null ||
          typeof v === 'number' ||
          typeof v === 'boolean' ||
          (typeof v === 'string' && v.length <= TICKET_LIMITS.metadataString)),
    )
  );
}

/** `metadata`: at most 50 entries, values string, number, boolean or null (no nested objects or arrays). */
function IsFlatMetadata(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFlatMetadata',
      target: target.constructor,
      propertyName,
      options: {
        message: `metadata must have at most ${TICKET_LIMITS.metadataEntries} entries, keys of at most ${TICKET_LIMITS.metadataKey} characters, and values that are strings (at most ${TICKET_LIMITS.metadataString} characters), numbers, booleans or null`,
        ...options,
      },
      validator: { validate: isFlatMetadata },
    });
}

export class TicketMessageDto {
  @ApiProperty({ enum: ['customer', 'agent', 'system'] })
  @IsIn(['customer', 'agent', 'system'])
  role: TicketRole;

  @ApiProperty({ maxLength: TICKET_LIMITS.text })
  @IsString()
  @MaxLength(TICKET_LIMITS.text)
  text: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @Omittable()
  @IsISO8601({ strict: true })
  at?: string;
}

export class TicketDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: TICKET_LIMITS.externalId,
    description: "The caller's own ticket id. It is not an idempotency key.",
  })
  @Omittable()
  @IsString()
  @MinLength(1)
  @MaxLength(TICKET_LIMITS.externalId)
  externalId?: string;

  @ApiProperty({
    minLength: 1,
    maxLength: TICKET_LIMITS.subject,
    example: 'Charged twice for my subscription',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(TICKET_LIMITS.subject)
  subject: string;

  @ApiProperty({
    minLength: 1,
    maxLength: TICKET_LIMITS.text,
    example: 'Hi, I was billed twice this month. Can you refund one of the payments?',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(TICKET_LIMITS.text)
  customerMessage: string;

  @ApiPropertyOptional({ type: [TicketMessageDto], maxItems: TICKET_LIMITS.messages })
  @Omittable()
  @ArrayMaxSize(TICKET_LIMITS.messages)
  @IsNestedObjects(() => TicketMessageDto)
  messages?: TicketMessageDto[];

  @ApiPropertyOptional({
    type: 'object',
    maxProperties: TICKET_LIMITS.metadataEntries,
    additionalProperties: {
      oneOf: [
        { type: 'string', maxLength: TICKET_LIMITS.metadataString },
        { type: 'number' },
        { type: 'boolean' },
      ],
      nullable: true,
    },
    example: { plan: 'pro', seats: 12 },
  })
  @Omittable()
  @IsObject()
  @IsFlatMetadata()
  metadata?: Record<string, MetadataValue>;

  @ApiPropertyOptional({ format: 'date-time' })
  @Omittable()
  @IsISO8601({ strict: true })
  createdAt?: string;
}

/**
 * TicketDto's rules as a fast-accept schema (see fast-accept.ts): the same fields and checks, stricter
 * where that is simpler (an optional field sent as null goes the slow way).
 */
export const TICKET_FAST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['subject', 'customerMessage'],
  properties: {
    externalId: { ...FAST.nonEmptyString, maxLength: TICKET_LIMITS.externalId },
    subject: { ...FAST.nonEmptyString, maxLength: TICKET_LIMITS.subject },
    customerMessage: { ...FAST.nonEmptyString, maxLength: TICKET_LIMITS.text },
    messages: {
      type: 'array',
      maxItems: TICKET_LIMITS.messages,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'text'],
        properties: {
          role: { type: 'string', enum: ['customer', 'agent', 'system'] },
          text: { ...FAST.string, maxLength: TICKET_LIMITS.text },
          at: FAST.iso8601,
        },
      },
    },
    metadata: {
      type: 'object',
      maxProperties: TICKET_LIMITS.metadataEntries,
      propertyNames: { maxLength: TICKET_LIMITS.metadataKey },
      additionalProperties: {
        anyOf: [
          { type: 'string', maxLength: TICKET_LIMITS.metadataString },
          { type: ['number', 'boolean', 'null'] },
        ],
      },
    },
    createdAt: FAST.iso8601,
  },
} as const;
