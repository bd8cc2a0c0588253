import { Body, Controller, Get, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public, SessionCookie } from '@app/auth';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ForbiddenError } from '@app/domain';
import {
  AuthorizationPageError,
  AuthorizationService,
  displayableName,
  publicOrigin,
  type AuthorizationRequest,
} from '@app/oauth';
import { authorizationParams, toQuery } from '../oauth/authorization-params.js';
import { ACCEPTS_FORM, formField, type FormFields } from '../oauth/form-body.js';
import { CsrfTokens } from './csrf.js';
import { hiddenFields, sendPage, text } from './html.js';
import { SCOPE_DESCRIPTIONS } from './scope-descriptions.js';

/**
 * `/consent`: shows a signed-in user what an MCP client asks for (its name, where it will send the
 * answer, the permissions) and records Approve or Deny. Every parameter is checked again on POST:
 * the form is only a carrier.
 */
@ApiExcludeController()
@Controller('consent')
@Public()
export class ConsentController {
  constructor(
    private readonly authorization: AuthorizationService,
    private readonly sessionCookie: SessionCookie,
    private readonly csrf: CsrfTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async show(@Query() query: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.handle(request, reply, query, async (checked, userId) =>
      this.page(request, reply, checked, await this.authorization.isNewHost(userId, checked.host)),
    );
  }

  @Post()
  @RouteConfig(ACCEPTS_FORM)
  async decide(@Body() form: FormFields, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.handle(request, reply, form, async (checked, userId) => {
      this.csrf.verify(request, 'consent', formField(form, 'csrf'));
      const issuer = publicOrigin(this.config, request);
      const next =
        formField(form, 'decision') === 'approve'
          ? await this.authorization.approve(userId, checked, issuer)
          : this.authorization.deny(checked, issuer);
      return reply.redirect(next.location, 303);
    });
  }

  private async handle(
    request: FastifyRequest,
    reply: FastifyReply,
    source: unknown,
    then: (checked: AuthorizationRequest, userId: string) => Promise<FastifyReply>,
  ): Promise<FastifyReply> {
    try {
      const params = authorizationParams(source);
      const user = await this.sessionCookie.read(request);
      if (!user) {
        return reply.redirect(`/login?next=${encodeURIComponent(`/consent?${toQuery(params)}`)}`, 303);
      }
      const checked = await this.authorization.check(params, publicOrigin(this.config, request));
      return await then(checked, user.userId);
    } catch (error) {
      if (error instanceof AuthorizationPageError)
        return sendPage(reply, 400, 'Cannot connect', errorBody(error.description));
      if (error instanceof ForbiddenError)
        return sendPage(reply, 403, 'Cannot connect', errorBody(error.message));
      throw error;
    }
  }

  private page(request: FastifyRequest, reply: FastifyReply, checked: AuthorizationRequest, isNew: boolean) {
    const csrf = this.csrf.issue(request, reply, 'consent');
    const destination = new URL(checked.redirectUri);
    const where = destination.protocol.startsWith('http') ? destination.host : `${destination.protocol}//`;
    const scopes = checked.scopes
      .map((scope) => `<li><code>${text(scope)}</code>: ${text(SCOPE_DESCRIPTIONS[scope])}</li>`)
      .join('');
    const name = text(displayableName(checked.client.name));
    // The host is what a client cannot choose freely (its document's address, or where the answer
    // goes), so it comes first; a host the user never approved an app from is marked new.
    const host = text(checked.host);
    const origin = checked.metadataDocument
      ? `Its identity is published at <strong>${host}</strong> (<code>${text(checked.client.id)}</code>).`
      : `It registered itself with this service, so its name is its own claim.`;
    const fresh = isNew
      ? `<p class="new" role="note"><strong>New:</strong> you have not connected an app from ${host} before.</p>`
      : '';
    return sendPage(
      reply,
      200,
      'Connect an application',
      `<p class="host">${host}</p>
      <h1>Connect ${name}?</h1>${fresh}
      <p><strong>${name}</strong> wants to use the Ticket Judging Service as you, through MCP.
      It will be sent back to <strong>${text(where)}</strong>. ${origin}</p>
      <p>It asks for these permissions:</p><ul>${scopes}</ul>
      <p class="muted">You can disconnect it at any time; its access then ends at once.</p>
      <form method="post" action="/consent">
        ${hiddenFields({ csrf, ...checked.params })}
        <div class="row">
          <button type="submit" name="decision" value="approve">Approve</button>
          <button type="submit" name="decision" value="deny">Deny</button>
        </div>
      </form>`,
    );
  }
}

function errorBody(message: string): string {
  return `<h1>Cannot connect this application</h1><p class="error" role="alert">${text(message)}</p>
    <p class="muted">Nothing was shared. Close this window and try connecting again from the application.</p>`;
}
