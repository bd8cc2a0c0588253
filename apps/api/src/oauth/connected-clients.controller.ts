import { Controller, Delete, Get, HttpCode, Param } from '@nestjs/common';
import {
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { ConnectedClientsService } from '@app/oauth';
import { ConnectedClientDto } from './connected-clients.dto.js';

/** The MCP clients a signed-in user has connected, and how to cut one off. */
@ApiTags('mcp clients')
@Controller('app/oauth-clients')
export class ConnectedClientsController {
  constructor(private readonly connected: ConnectedClientsService) {}

  @Get()
  @Authenticated({ sessionOnly: true })
  @ApiOperation({ summary: 'Clients connected through OAuth (MCP), newest first' })
  @ApiOkResponse({ type: [ConnectedClientDto] })
  async list(@CurrentPrincipal() principal: Principal): Promise<ConnectedClientDto[]> {
    const rows = await this.connected.list(principal.userId);
    return rows.map((row) => ({
      id: row.clientId,
      name: row.name,
      host: row.host,
      scopes: row.scopes,
      connectedAt: row.connectedAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    }));
  }

  @Delete(':id')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  @ApiOperation({ summary: 'Disconnect a client: every token it holds for you stops working at once' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: '`client not found`', type: ErrorBodyDto })
  disconnect(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.connected.disconnect(principal.userId, id);
  }
}
