import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { OAuthRepository, RedisClient, type OAuthClientEntity } from '@app/persistence';
import { credentialMatches, hashCredential, newCredential } from './credentials.js';
import { OAuthError } from './oauth-error.js';
import { CLIENT_METADATA, type ClientMetadata } from './client-metadata.js';
import { isClientIdUrl, MAX_CLIENT_ID_URL_LENGTH } from './client-metadata-document.js';
import { checkRedirectUri } from './redirect-uris.js';
import { RegistrationLimits } from './registration-limits.js';
import { parseScopes } from './scopes.js';

/** What a caller of the token or revocation endpoint presented, and how (RFC 7591 auth method names). */
export interface ClientCredentials {
  clientId?: string;
  secret?: string;
  method: 'none' | 'client_secret_basic' | 'client_secret_post';
}

export type RegisteredClient = ClientMetadata & {
  client_id: string;
  client_id_issued_at: number;
  client_secret?: string;
  client_secret_expires_at?: number;
};

/** Dynamic client registration (RFC 7591) and client authentication at the token endpoints. */
@Injectable()
export class ClientRegistrationService {
  private readonly limits: RegistrationLimits;

  constructor(
    private readonly repository: OAuthRepository,
    redis: RedisClient,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limits = new RegistrationLimits(redis, config);
  }

  async register(body: unknown, ip: string): Promise<RegisteredClient> {
    const parsed = CLIENT_METADATA.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue.path.join('.') || 'body';
      throw new OAuthError('invalid_client_metadata', `${where}: ${issue.message}`);
    }
    const metadata = parsed.data;
    metadata.redirect_uris.forEach(checkRedirectUri);
    if (metadata.scope !== undefined) parseScopes(metadata.scope);
    await this.limits.take(ip);
    const id = newCredential('tj_cs_').replace('tj_cs_', 'mcp_');
    const secret = metadata.token_endpoint_auth_method === 'none' ? undefined : newCredential('tj_cs_');
    const issuedAt = Math.floor(Date.now() / 1000);
    await this.repository.createClient({
      id,
      name: metadata.client_name?.trim() || 'Unnamed client',
      redirectUris: metadata.redirect_uris,
      tokenEndpointAuthMethod: metadata.token_endpoint_auth_method,
      secretHash: secret ? hashCredential(secret) : null,
      metadata: { ...metadata, client_id_issued_at: issuedAt },
    });
    return {
      ...metadata,
      client_id: id,
      client_id_issued_at: issuedAt,
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    };
  }

  /**
   * A stored client: registered, or a metadata document client someone approved (its URL is its
   * id; the token and revocation endpoints use the row stored on approval and fetch nothing).
   */
  async find(clientId: string): Promise<OAuthClientEntity | null> {
    const limit = isClientIdUrl(clientId) ? MAX_CLIENT_ID_URL_LENGTH : 200;
    return clientId.length <= limit ? this.repository.findClient(clientId) : null;
  }

  /**
   * The client calling the token or revocation endpoint: a public client names itself; a client
   * with a secret proves it the one way it registered (Basic or in the body), so a secret copied
   * into the other place, by a proxy log or a misbehaving library, is not accepted.
   */
  async authenticate(credentials: ClientCredentials): Promise<OAuthClientEntity> {
    const client = credentials.clientId ? await this.find(credentials.clientId) : null;
    if (!client) throw new OAuthError('invalid_client', 'unknown client', 401);
    if (client.tokenEndpointAuthMethod === 'none') return client;
    if (credentials.method !== client.tokenEndpointAuthMethod) {
      throw new OAuthError(
        'invalid_client',
        `this client authenticates with ${client.tokenEndpointAuthMethod} only`,
        401,
      );
    }
    if (
      !credentials.secret ||
      !client.secretHash ||
      !credentialMatches(credentials.secret, client.secretHash)
    ) {
      throw new OAuthError('invalid_client', 'client authentication failed', 401);
    }
    return client;
  }
}
