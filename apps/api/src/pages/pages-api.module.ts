import { Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { OAuthModule } from '@app/oauth';
import { ConsentController } from './consent.controller.js';
import { CsrfTokens } from './csrf.js';
import { LoginController } from './login.controller.js';

/** The server-rendered pages: /login (the app's and the OAuth flow's sign-in) and /consent. */
@Module({
  imports: [AuthModule, OAuthModule],
  controllers: [LoginController, ConsentController],
  providers: [CsrfTokens],
})
export class PagesApiModule {}
