import { ApiProperty } from '@nestjs/swagger';
import { PERMISSIONS, type Permission } from '@app/domain';

export class ConnectedClientDto {
  @ApiProperty({ description: 'The OAuth client id.' })
  id: string;

  @ApiProperty({ description: 'The name the client registered with.' })
  name: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true, description: 'What the user approved.' })
  scopes: Permission[];

  @ApiProperty({ format: 'date-time' })
  connectedAt: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastUsedAt: string | null;
}
