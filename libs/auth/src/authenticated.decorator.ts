import { applyDecorators, createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCookieAuth,
  ApiExtension,
  ApiForbiddenResponse,
  ApiSecurity,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Permission } from '@app/domain';
import { ErrorBodyDto } from './error-body.dto.js';
import type { Principal } from './principal.js';

export const AUTH_METADATA = 'tj:auth';

export interface AuthRequirement {
  /** The permission the credential must hold. */
  permission?: Permission;
  /** Only an API key is accepted (a session cookie alone gets 401 `API key required`). */
  keyOnly?: boolean;
  /** Only a signed-in session is accepted (app routes such as key management). */
  sessionOnly?: boolean;
  /**
   * Only an OAuth access token issued for this route's resource (the MCP endpoint): API keys and
   * sessions get the same 401 with a `WWW-Authenticate` challenge as no credential at all.
   */
  oauth?: boolean;
}

export type AuthMetadata = AuthRequirement & { public?: boolean };

/**
 * Declares who may call a route: sets the metadata the global AuthenticationGuard enforces and the
 * route's OpenAPI security and 401/403/429 responses, so documentation and enforcement cannot drift.
 */
export function Authenticated(requirement: AuthRequirement = {}) {
  const decorators: Array<ClassDecorator & MethodDecorator> = [SetMetadata(AUTH_METADATA, requirement)];
  if (requirement.oauth) {
    decorators.push(ApiSecurity('oauth2'));
  } else if (requirement.sessionOnly) {
    decorators.push(ApiCookieAuth('session'));
  } else {
    decorators.push(ApiSecurity('api-key'), ApiBearerAuth('bearer'));
    if (!requirement.keyOnly) decorators.push(ApiCookieAuth('session'));
    decorators.push(
      ApiTooManyRequestsResponse({
        description: '`rate limit exceeded` (per API key, see Retry-After)',
        type: ErrorBodyDto,
      }),
    );
  }
  const who = requirement.oauth
    ? '`access token required` or `invalid access token`, with a `WWW-Authenticate: Bearer` challenge naming the resource metadata'
    : requirement.sessionOnly
      ? '`sign in required`'
      : requirement.keyOnly
        ? '`API key required` (a session is not accepted here) or `invalid API key`'
        : '`API key required` or `invalid API key`';
  decorators.push(ApiUnauthorizedResponse({ description: who, type: ErrorBodyDto }));
  if (requirement.permission) {
    decorators.push(
      ApiExtension('x-permission', requirement.permission) as ClassDecorator & MethodDecorator,
      ApiForbiddenResponse({
        description: `\`missing permission ${requirement.permission}\``,
        type: ErrorBodyDto,
      }),
    );
  }
  return applyDecorators(...decorators);
}

/** Marks a route that needs no credential (health, docs, sign-up and sign-in). */
export const Public = () => SetMetadata(AUTH_METADATA, { public: true } satisfies AuthMetadata);

/** The authenticated principal of the request (set by the AuthenticationGuard). */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => ctx.switchToHttp().getRequest<{ user: Principal }>().user,
);
