import { Module } from '@nestjs/common';
import { AuthorizationService } from './authorization.service.js';
import { ClientRegistrationService } from './client-registration.service.js';
import { ConnectedClientsService } from './connected-clients.service.js';
import { MetadataDocumentFetcher } from './metadata-document-fetcher.js';
import { TokenService } from './token.service.js';

const SERVICES = [ClientRegistrationService, AuthorizationService, TokenService, ConnectedClientsService];

/** The OAuth 2.1 authorization server of the MCP interface. */
@Module({ providers: [...SERVICES, MetadataDocumentFetcher], exports: SERVICES })
export class OAuthModule {}
