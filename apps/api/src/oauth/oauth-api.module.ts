import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { OAuthModule } from '@app/oauth';
import { ConsentController } from '../pages/consent.controller.js';
import { CsrfTokens } from '../pages/csrf.js';
import { LoginController } from '../pages/login.controller.js';
import { ConnectedClientsController } from './connected-clients.controller.js';
import { OAuthController } from './oauth.controller.js';
import { WellKnownController } from './well-known.controller.js';

/** The authorization server's HTTP face: endpoints, discovery, the sign-in and consent pages. */
@Module({
  imports: [OAuthModule, AuthModule],
  controllers: [
    WellKnownController,
    OAuthController,
    LoginController,
    ConsentController,
    ConnectedClientsController,
  ],
  providers: [CsrfTokens],
})
export class OAuthApiModule {}
