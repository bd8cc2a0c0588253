export { AuthModule } from './auth.module.js';
export { AuthenticationGuard } from './authentication.guard.js';
export { Authenticated, Public, CurrentPrincipal, type AuthRequirement } from './authenticated.decorator.js';
export { AccountService, normaliseEmail, type AccountView } from './account.service.js';
export { ApiKeyService, type ApiKeyView, type ApiKeyWithSecret } from './api-key.service.js';
export { SessionService, type NewSession } from './session.service.js';
export { ErrorBodyDto, ValidationIssueDto } from './error-body.dto.js';
export { SESSION_COOKIE, type Principal } from './principal.js';
export { SIGN_IN_FAILURES_PER_EMAIL } from './sign-in-throttle.service.js';
