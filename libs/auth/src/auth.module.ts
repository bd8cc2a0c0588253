import { Global, Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { OAuthModule } from '@app/oauth';
import { AccountService } from './account.service.js';
import { ApiKeyRateLimiter } from './api-key-rate-limiter.service.js';
import { ApiKeyService } from './api-key.service.js';
import { AuthenticationGuard } from './authentication.guard.js';
import { PasswordService } from './password.service.js';
import { SessionService } from './session.service.js';
import { SessionCookie } from './session-cookie.js';
import { SignInThrottle } from './sign-in-throttle.service.js';
import { SessionAuthGuard, SessionStrategy } from './strategies.js';

const SERVICES = [
  AccountService,
  ApiKeyService,
  PasswordService,
  SessionService,
  SessionCookie,
  SignInThrottle,
  ApiKeyRateLimiter,
];

@Global()
@Module({
  imports: [PassportModule, OAuthModule],
  providers: [...SERVICES, SessionStrategy, SessionAuthGuard, AuthenticationGuard],
  exports: [...SERVICES, AuthenticationGuard],
})
export class AuthModule {}
