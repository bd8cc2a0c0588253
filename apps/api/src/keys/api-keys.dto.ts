import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { PERMISSIONS, type Permission } from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'zendesk integration', maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  name: string;

  @ApiPropertyOptional({ enum: PERMISSIONS, isArray: true, description: 'Defaults to all six permissions.' })
  @Omittable()
  @IsArray()
  @ArrayUnique()
  @IsIn(PERMISSIONS, { each: true, message: `each permission must be one of: ${PERMISSIONS.join(', ')}` })
  permissions?: Permission[];
}

export class ApiKeyDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty({
    example: 'tj_live_3fK9aQ',
    description: 'The first characters of the secret, to tell keys apart.',
  })
  prefix: string;

  @ApiProperty({ enum: PERMISSIONS, isArray: true })
  permissions: Permission[];

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'Updated at most once a minute.',
  })
  lastUsedAt: string | null;
}

export class ApiKeyWithSecretDto extends ApiKeyDto {
  @ApiProperty({ description: 'The secret. Shown this once: only its hash is stored.' })
  secret: string;
}
