import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '@app/auth';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { authorizationServerMetadata, protectedResourceMetadata, publicOrigin } from '@app/oauth';

/** Discovery documents: how an MCP client finds the authorization server and what it offers. */
@ApiTags('oauth')
@Controller('.well-known')
@Public()
export class WellKnownController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('oauth-authorization-server')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)' })
  authorizationServer(@Req() request: FastifyRequest) {
    return authorizationServerMetadata(publicOrigin(this.config, request));
  }

  @Get('oauth-protected-resource/mcp')
  @ApiOperation({ summary: 'Protected resource metadata of /mcp (RFC 9728)' })
  mcpResource(@Req() request: FastifyRequest) {
    return protectedResourceMetadata(publicOrigin(this.config, request));
  }

  @Get('oauth-protected-resource')
  @ApiOperation({ summary: 'Protected resource metadata (RFC 9728), the same as for /mcp' })
  resource(@Req() request: FastifyRequest) {
    return protectedResourceMetadata(publicOrigin(this.config, request));
  }
}
