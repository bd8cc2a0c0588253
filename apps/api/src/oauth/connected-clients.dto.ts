import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '@app/domain';

export class ConnectedClientDto {
  @ApiProperty({
    description:
      'The OAuth client id: for a client ID metadata document client, the https URL of its document.',
  })
  id: string;

  @ApiProperty({
    description: 'The name the client registered with, or its metadata document names (else its host).',
  })
  name: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The host a client ID metadata document client is published at; null for a client that registered itself.',
  })
  host: string | null;

  @ApiProperty({ enum: PERMISSIONS, isArray: true, description: 'What the user approved.' })
  scopes: Permission[];

  @ApiProperty({ format: 'date-time' })
  connectedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;
}
