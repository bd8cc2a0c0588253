import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ValidationIssueDto {
  @ApiProperty({ example: 'ticket.subject' })
  path: string;

  @ApiProperty({ example: 'subject should not be empty' })
  message: string;
}

/** The one error body of every route: `{error}`, plus `issues` on a schema failure. */
export class ErrorBodyDto {
  @ApiProperty({ example: 'invalid request' })
  error: string;

  @ApiPropertyOptional({ type: [ValidationIssueDto] })
  issues?: ValidationIssueDto[];
}
