import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { OAuthModule } from '@app/oauth';
import { ConnectedClientsController } from './connected-clients.controller.js';
import { OAuthController } from './oauth.controller.js';
import { WellKnownController } from './well-known.controller.js';

/** The authorization server's HTTP face: endpoints, discovery and the connected clients (the pages are PagesApiModule's). */
@Module({
  imports: [OAuthModule, AuthModule],
  controllers: [WellKnownController, OAuthController, ConnectedClientsController],
})
export class OAuthApiModule {}
