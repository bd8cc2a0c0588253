import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyService, Authenticated, CurrentPrincipal, ErrorBodyDto, type Principal } from '@app/auth';
import { ApiKeyDto, ApiKeyWithSecretDto, CreateApiKeyDto } from './api-keys.dto.js';

/** Key management for the Integrations page: a signed-in session only, never an API key. */
@ApiTags('keys')
@Controller('app/keys')
@Authenticated({ sessionOnly: true })
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeyService) {}

  @Get()
  @ApiOperation({ summary: 'List your active API keys (never their secrets)' })
  @ApiOkResponse({ type: [ApiKeyDto] })
  list(@CurrentPrincipal() principal: Principal): Promise<ApiKeyDto[]> {
    return this.apiKeys.list(principal.userId);
  }

  @Post()
  @ApiOperation({ summary: 'Create an API key; the secret is returned this once' })
  @ApiCreatedResponse({ type: ApiKeyWithSecretDto })
  create(
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateApiKeyDto,
  ): Promise<ApiKeyWithSecretDto> {
    return this.apiKeys.create(principal.userId, body.name, body.permissions);
  }

  @Post(':id/rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Issue a new secret for a key; the old secret stops working at once' })
  @ApiOkResponse({ type: ApiKeyWithSecretDto })
  @ApiNotFoundResponse({ description: '`API key not found`', type: ErrorBodyDto })
  rotate(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<ApiKeyWithSecretDto> {
    return this.apiKeys.rotate(principal.userId, id);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke a key; it stops working at once' })
  @ApiNoContentResponse()
  @ApiNotFoundResponse({ description: '`API key not found`', type: ErrorBodyDto })
  revoke(@CurrentPrincipal() principal: Principal, @Param('id') id: string): Promise<void> {
    return this.apiKeys.revoke(principal.userId, id);
  }
}
