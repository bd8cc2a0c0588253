import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Permission } from '@app/domain';
import { OAuthRepository, type OAuthClientEntity } from '@app/persistence';
import { ClientRegistrationService } from './client-registration.service.js';
import { displayableName } from './client-metadata.js';
import { isClientIdUrl, MetadataDocumentError } from './client-metadata-document.js';
import { hashCredential, newCredential } from './credentials.js';
import { MetadataDocumentFetcher } from './metadata-document-fetcher.js';
import { AuthorizationPageError, OAuthError } from './oauth-error.js';
import { isPkceValue } from './pkce.js';
import { isRegisteredRedirectUri } from './redirect-uris.js';
import { parseScopes } from './scopes.js';

/** A code is exchanged by the client at once; a minute is plenty and keeps a leaked code short-lived. */
export const CODE_TTL_SECONDS = 60;

/** The query of an authorization request (and of the consent page, which carries it on). */
export type AuthorizationParams = Partial<
  Record<
    | 'response_type'
    | 'client_id'
    | 'redirect_uri'
    | 'state'
    | 'scope'
    | 'code_challenge'
    | 'code_challenge_method'
    | 'resource',
    string
  >
>;

/** A checked authorization request, ready to be shown for consent. */
export interface AuthorizationRequest {
  /** For a metadata document client, a row as the document describes it (stored on approval). */
  client: OAuthClientEntity;
  /** Whether the client_id is the URL of a client ID metadata document. */
  metadataDocument: boolean;
  /**
   * Where the client is from, as the user is shown it: a document client's URL host name; for a
   * registered client, its redirect URI's host name (or private-use scheme, `com.example.app:`).
   */
  host: string;
  redirectUri: string;
  state?: string;
  scopes: Permission[];
  codeChallenge: string;
  resource: string;
  /** The parameters as received, carried through sign-in and the consent form. */
  params: AuthorizationParams;
}

/** Where the user agent goes next: back to the client with a code or an error. */
export interface ClientRedirect {
  location: string;
}

/**
 * The authorization endpoint's rules (OAuth 2.1 with PKCE S256, RFC 8707 resource, RFC 9207 iss).
 * A request found wrong before the user approved or denied is never redirected: the user sees an
 * error page. Registration is open, so redirecting such errors would make this server an open
 * redirector to any registered URI (RFC 9700 §4.11.2). Only the user's decision goes back.
 */
@Injectable()
export class AuthorizationService {
  constructor(
    private readonly clients: ClientRegistrationService,
    private readonly repository: OAuthRepository,
    private readonly documents: MetadataDocumentFetcher,
  ) {}

  /** Checks a request; throws AuthorizationPageError (show a page, never redirect) when it is wrong. */
  async check(params: AuthorizationParams, issuer: string): Promise<AuthorizationRequest> {
    const metadataDocument = !!params.client_id && isClientIdUrl(params.client_id);
    const client =
      metadataDocument && params.client_id
        ? await this.documentClient(params.client_id)
        : await this.registered(params);
    const redirectUri =
      params.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
    if (!redirectUri || !isRegisteredRedirectUri(redirectUri, client.redirectUris)) {
      throw new AuthorizationPageError(
        metadataDocument
          ? 'The application asked to return to an address its metadata document does not list.'
          : 'The application asked to return to an address it did not register.',
      );
    }
    try {
      return {
        client,
        metadataDocument,
        host: metadataDocument ? new URL(client.id).hostname : redirectHost(redirectUri),
        redirectUri,
        state: params.state,
        scopes: parseScopes(params.scope),
        codeChallenge: checkChallenge(params),
        resource: checkResource(params, issuer),
        params,
      };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      throw new AuthorizationPageError(
        `The application sent an invalid request (${error.code}: ${error.description}).`,
      );
    }
  }

  private async registered(params: AuthorizationParams): Promise<OAuthClientEntity> {
    const client = params.client_id ? await this.clients.find(params.client_id) : null;
    if (!client) throw new AuthorizationPageError('This application is not registered with the service.');
    return client;
  }

  /** A metadata document client as its document (fetched, or cached) describes it; stored on approval. */
  private async documentClient(clientId: string): Promise<OAuthClientEntity> {
    try {
      const document = await this.documents.get(clientId);
      return {
        id: clientId,
        name: displayableName(document.client_name?.trim() ?? '') || new URL(clientId).hostname,
        redirectUris: document.redirect_uris,
        tokenEndpointAuthMethod: 'none' as const,
        secretHash: null,
        metadata: { ...document },
        createdAt: new Date(),
        lastAuthorizedAt: null,
      };
    } catch (error) {
      if (!(error instanceof MetadataDocumentError)) throw error;
      throw new AuthorizationPageError(`The application's client ID cannot be used: ${error.reason}.`);
    }
  }

  /** Whether the user has never approved a client from this host: the consent page marks it new. */
  async isNewHost(userId: string, host: string): Promise<boolean> {
    return !(await this.repository.hasApprovedHost(userId, host));
  }

  /** The user approved: a grant for exactly what was asked, and a one-time code for the client. */
  async approve(userId: string, request: AuthorizationRequest, issuer: string): Promise<ClientRedirect> {
    const code = newCredential('tj_code_');
    const grantId = randomUUID();
    await this.repository.createGrant(
      {
        id: grantId,
        userId,
        clientId: request.client.id,
        scopes: request.scopes,
        resource: request.resource,
      },
      {
        codeHash: hashCredential(code),
        grantId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        expiresAt: new Date(Date.now() + CODE_TTL_SECONDS * 1000),
      },
      {
        host: request.host,
        documentClient: request.metadataDocument
          ? {
              id: request.client.id,
              name: request.client.name,
              redirectUris: request.client.redirectUris,
              metadata: request.client.metadata,
            }
          : undefined,
      },
    );
    return { location: clientRedirect(request.redirectUri, issuer, request.state, { code }) };
  }

  deny(request: AuthorizationRequest, issuer: string): ClientRedirect {
    return {
      location: clientRedirect(request.redirectUri, issuer, request.state, {
        error: 'access_denied',
        error_description: 'the user denied the request',
      }),
    };
  }
}

/** A redirect URI's host name (no port: loopback ports change per run), or its private-use scheme. */
function redirectHost(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : url.protocol;
}

function checkChallenge(params: AuthorizationParams): string {
  if (params.response_type !== 'code') {
    throw new OAuthError('unsupported_response_type', 'response_type must be code');
  }
  if (!params.code_challenge) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE)');
  if (params.code_challenge_method !== 'S256') {
    throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  }
  if (!isPkceValue(params.code_challenge))
    throw new OAuthError('invalid_request', 'code_challenge is malformed');
  return params.code_challenge;
}

/** RFC 8707: the one protected resource is the MCP endpoint; a request may name it or leave it out. */
function checkResource(params: AuthorizationParams, issuer: string): string {
  const resource = `${issuer}/mcp`;
  if (params.resource !== undefined && params.resource !== resource) {
    throw new OAuthError('invalid_target', `resource must be ${resource}`);
  }
  return resource;
}

function clientRedirect(
  redirectUri: string,
  issuer: string,
  state: string | undefined,
  result: Record<string, string>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(result)) url.searchParams.set(name, value);
  if (state !== undefined) url.searchParams.set('state', state);
  url.searchParams.set('iss', issuer);
  return url.toString();
}
