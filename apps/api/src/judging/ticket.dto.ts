import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsISO8601,
  IsObject,
  IsOptional,
  IsString,
  MinLength,
  ValidateNested,
  registerDecorator,
  type ValidationOptions,
} from 'class-validator';
import type { MetadataValue, TicketRole } from '@app/domain';
import { FAST } from '../errors/fast-accept.js';

/** `metadata` values must be string, number, boolean or null (no nested objects or arrays). */
function IsFlatMetadata(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isFlatMetadata',
      target: target.constructor,
      propertyName,
      options: { message: 'metadata values must be string, number, boolean or null', ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Object.values(value).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v)),
      },
    });
}

export class TicketMessageDto {
  @ApiProperty({ enum: ['customer', 'agent', 'system'] })
  @IsIn(['customer', 'agent', 'system'])
  role: TicketRole;

  @ApiProperty()
  @IsString()
  text: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  at?: string;
}

export class TicketDto {
  @ApiPropertyOptional({
    minLength: 1,
    description: "The caller's own ticket id. It is not an idempotency key.",
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  externalId?: string;

  @ApiProperty({ minLength: 1, example: 'Charged twice for my subscription' })
  @IsString()
  @MinLength(1)
  subject: string;

  @ApiProperty({
    minLength: 1,
    example: 'Hi, I was billed twice this month. Can you refund one of the payments?',
  })
  @IsString()
  @MinLength(1)
  customerMessage: string;

  @ApiPropertyOptional({ type: [TicketMessageDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => TicketMessageDto)
  messages?: TicketMessageDto[];

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: {
      oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
      nullable: true,
    },
    example: { plan: 'pro', seats: 12 },
  })
  @IsOptional()
  @IsObject()
  @IsFlatMetadata()
  metadata?: Record<string, MetadataValue>;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
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
    externalId: FAST.nonEmptyString,
    subject: FAST.nonEmptyString,
    customerMessage: FAST.nonEmptyString,
    messages: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['role', 'text'],
        properties: {
          role: { type: 'string', enum: ['customer', 'agent', 'system'] },
          text: FAST.string,
          at: FAST.iso8601,
        },
      },
    },
    metadata: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    },
    createdAt: FAST.iso8601,
  },
} as const;
