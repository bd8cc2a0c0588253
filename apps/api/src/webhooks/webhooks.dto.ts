import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, MaxLength } from 'class-validator';
import { Omittable } from '../errors/validation-rules.js';

export class SaveWebhookEndpointDto {
  @ApiProperty({
    example: 'https://helpdesk.example.com/hooks/ticket-judge',
    description: 'Absolute http or https URL.',
  })
  @IsString()
  @MaxLength(2048)
  url: string;

  @ApiPropertyOptional({
    default: false,
    description: 'When true, unsigned inbound requests are refused with 401 `invalid signature`.',
  })
  @Omittable()
  @IsBoolean()
  requireInboundSignature?: boolean;
}

export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  url: string;

  @ApiProperty({
    description: 'When true, unsigned inbound requests are refused with 401 `invalid signature`.',
  })
  requireInboundSignature: boolean;
}

export class SavedWebhookEndpointDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_…',
    description: 'The completion secret (32 random bytes), shown this once.',
  })
  secret: string;
}

export class EventIdDto {
  @ApiProperty({ format: 'uuid' })
  eventId: string;
}

export class DeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({
    enum: ['evaluation.completed', 'simulation.completed', 'simulation.failed', 'quality.alert'],
    description:
      "What the delivery sends: an inbound event's completion (`eventId` and `evaluationId` set), a finished simulation (`simulationId` set) or a quality alert (`alertId` set; docs/alerts.md).",
  })
  type: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Null for a simulation or an alert.',
  })
  eventId: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Null for a simulation or an alert.',
  })
  evaluationId: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Set for `simulation.completed` and `simulation.failed`; null otherwise.',
  })
  simulationId: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'Set for `quality.alert` (the alert of GET /api/alerts); null otherwise.',
  })
  alertId: string | null;

  @ApiProperty({ enum: ['pending', 'succeeded', 'failed'] })
  status: string;

  @ApiProperty()
  attempts: number;

  @ApiProperty({ type: 'integer', nullable: true, description: 'Null when no response was received.' })
  lastStatusCode: number | null;

  @ApiProperty({ type: String, nullable: true })
  lastError: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt: string | null;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class DeliveryPageDto {
  @ApiProperty({ type: [DeliveryDto] })
  items: DeliveryDto[];

  @ApiProperty({ type: String, nullable: true })
  nextCursor: string | null;
}

export class ListDeliveriesQueryDto {
  @ApiPropertyOptional({ enum: ['pending', 'succeeded', 'failed'] })
  @Omittable()
  @IsIn(['pending', 'succeeded', 'failed'])
  status?: 'pending' | 'succeeded' | 'failed';

  @ApiPropertyOptional()
  @Omittable()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

export class RedeliveryDto {
  @ApiProperty({ format: 'uuid' })
  id: string;
}

export class EndpointTestResultDto {
  @ApiProperty({ description: 'True when the receiver answered with a 2xx.' })
  ok: boolean;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description:
      "The receiver's HTTP status; null when no response came (timeout, connection error, refused private address).",
  })
  status: number | null;

  @ApiProperty({
    type: 'integer',
    description: 'Milliseconds from sending the request to the end of the answer (at most about 10 000).',
  })
  durationMs: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Null after a 2xx; `HTTP <status>` for another status; otherwise the client error, as `lastError` of a delivery.',
  })
  error: string | null;
}
