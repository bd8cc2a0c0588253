import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, MinLength } from 'class-validator';
import { IsNestedObject, Omittable } from '../errors/validation-rules.js';
import { JudgeResponseDto } from './judgment.dto.js';
import { TicketDto } from './ticket.dto.js';

export class PlaygroundJudgeRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsString()
  @MinLength(1)
  packId: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Judge with this version of the pack, the draft included; the live version when absent.',
  })
  @Omittable()
  @IsString()
  packVersionId?: string;

  @ApiProperty({ type: TicketDto })
  @IsDefined()
  @IsNestedObject(() => TicketDto)
  ticket: TicketDto;
}

export class PlaygroundJudgeResponseDto extends JudgeResponseDto {
  @ApiProperty({ type: TicketDto, description: 'The ticket as the model saw it and as stored: redacted.' })
  redactedTicket: TicketDto;
}
