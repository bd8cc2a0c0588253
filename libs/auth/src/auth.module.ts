import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { OAuthModule } from '@app/oauth';
import { AccountService } from './account.service.js';
import { DailyRateLimiter } from './daily-rate-limiter.service.js';
import { ApiKeyService } from './api-key.service.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { PasswordService } from './password.service.js';
import { SessionService } from './session.service.js';
import { SessionCookie } from './session-cookie.js';
import { SignInThrottle } from './sign-in-throttle.service.js';
import { SignUpThrottle } from './sign-up-throttle.service.js';
import { SessionAuthGuard, SessionStrategy } from './strategies.js';

/** What the API's controllers, MCP's tool calls and the global guard use; the rest stays inside the module. */
const EXPORTED = [AccountService, ApiKeyService, SessionCookie, AuthenticationGuard, DailyRateLimiter];

/** The guard checks OAuth access tokens too, hence OAuthModule. */
@Module({
  imports: [PassportModule, OAuthModule],
  providers: [
    ...EXPORTED,
    PasswordService,
    SessionService,
    SignInThrottle,
    SignUpThrottle,
    SessionStrategy,
    SessionAuthGuard,
  ],
  exports: EXPORTED,
})
export class AuthModule {}
