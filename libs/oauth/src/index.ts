export { OAuthModule } from './oauth.module.js';
export { OAuthError, AuthorizationPageError, type OAuthErrorCode } from './oauth-error.js';
export { OAUTH_SCOPES, parseScopes } from './scopes.js';
export { REGISTRATIONS_PER_IP_PER_HOUR } from './registration-limits.js';
export {
  ClientRegistrationService,
  type RegisteredClient,
  type ClientCredentials,
} from './client-registration.service.js';
export {
  AuthorizationService,
  CODE_TTL_SECONDS,
  type AuthorizationParams,
  type AuthorizationRequest,
  type ClientRedirect,
} from './authorization.service.js';
export {
  TokenService,
  ACCESS_TOKEN_TTL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  type TokenRequest,
  type TokenResponse,
  type VerifiedAccessToken,
  type AccessTokenCheck,
} from './token.service.js';
export { ConnectedClientsService, type ConnectedClient } from './connected-clients.service.js';
export { authorizationServerMetadata, protectedResourceMetadata } from './oauth-metadata.js';
export { publicOrigin, mcpResource } from './public-origin.js';
export { bearerChallenge, resourceMetadataUrl, type BearerError } from './bearer-challenge.js';
export { displayableName } from './client-metadata.js';
export { checkRedirectUri, isRegisteredRedirectUri } from './redirect-uris.js';
export { verifiesChallenge } from './pkce.js';
