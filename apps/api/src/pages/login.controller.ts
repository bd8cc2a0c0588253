import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountService, Public, SessionCookie } from '@app/auth';
import { DomainError, RateLimitedError, ValidationError, type DomainErrorKind } from '@app/domain';
import { SignInDto, SignUpDto } from '../auth/account.dto.js';
import { createValidationPipe } from '../errors/validation.pipe.js';
import { ACCEPTS_FORM, formField, type FormFields } from '../oauth/form-body.js';
import { CsrfTokens } from './csrf.js';
import { hiddenFields, sendPage, text } from './html.js';
import { safeNextPath } from './next-path.js';

const formPipe = createValidationPipe();
/** What the page echoes back of a refused email: the JSON routes' cap, not what was sent. */
const MAX_ECHOED_EMAIL = 254;

const PAGE_STATUS: Partial<Record<DomainErrorKind, number>> = {
  unauthenticated: 401,
  forbidden: 403,
  conflict: 409,
};

/**
 * `/login`: sign in (or sign up) with a plain HTML form that works without JavaScript. An OAuth
 * authorization request that finds no session sends the browser here with `next`, and back.
 */
@ApiExcludeController()
@Controller('login')
@Public()
export class LoginController {
  constructor(
    private readonly accounts: AccountService,
    private readonly sessionCookie: SessionCookie,
    private readonly csrf: CsrfTokens,
  ) {}

  @Get()
  async show(
    @Query('next') next: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const target = safeNextPath(next);
    const user = await this.sessionCookie.read(request);
    if (user && target) return reply.redirect(target, 303);
    return this.form(request, reply, 200, target, user ? 'You are already signed in.' : null);
  }

  @Post()
  @RouteConfig(ACCEPTS_FORM)
  async submit(
    @Body() form: FormFields,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    const target = safeNextPath(formField(form, 'next'));
    try {
      this.csrf.verify(request, 'login', formField(form, 'csrf'));
      const userId =
        formField(form, 'action') === 'sign-up'
          ? await this.signUp(form, request)
          : await this.signIn(form, request);
      await this.sessionCookie.start(userId, reply);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const status = error instanceof RateLimitedError ? 429 : (PAGE_STATUS[error.kind] ?? 400);
      const message =
        error instanceof ValidationError
          ? error.issues.map((issue) => issue.message).join('; ')
          : error.message;
      const email = formField(form, 'email')?.slice(0, MAX_ECHOED_EMAIL);
      return this.form(request, reply, status, target, message, email);
    }
    // Without a next path, the web app's home (served at `/`).
    return reply.redirect(target ?? '/', 303);
  }

  /** The JSON sign-in route's own caps (email and password lengths), before any throttle counts. */
  private async signIn(form: FormFields, request: FastifyRequest): Promise<string> {
    const body = await credentials(form, SignInDto);
    return (await this.accounts.signIn(body.email, body.password, request.ip)).id;
  }

  /** The JSON sign-up route's own rules (email format, password length). */
  private async signUp(form: FormFields, request: FastifyRequest): Promise<string> {
    const body = await credentials(form, SignUpDto);
    return (await this.accounts.signUp(body.email, body.password, request.ip)).id;
  }

  private form(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    next: string | null,
    message: string | null,
    email = '',
  ): FastifyReply {
    const csrf = this.csrf.issue(request, reply, 'login');
    const continuing = next?.startsWith('/oauth/authorize')
      ? '<p class="muted">An application asked to connect to your account. Sign in to review its request.</p>'
      : '';
    return sendPage(
      reply,
      status,
      'Sign in',
      `<h1>Sign in</h1>${continuing}
      ${message ? `<p class="error" role="alert">${text(message)}</p>` : ''}
      <form method="post" action="/login">
        ${hiddenFields({ csrf, next: next ?? undefined })}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required value="${text(email)}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required minlength="1">
        <div class="row">
          <button type="submit" name="action" value="sign-in">Sign in</button>
          <button type="submit" name="action" value="sign-up">Create account</button>
        </div>
        <p class="muted">New here? Enter an email and a password of at least 8 characters and choose Create account.</p>
      </form>`,
    );
  }
}

/** The form's email and password, validated by the DTO of the matching JSON route. */
async function credentials<T extends SignInDto | SignUpDto>(form: FormFields, dto: new () => T): Promise<T> {
  const fields = { email: formField(form, 'email') ?? '', password: formField(form, 'password') ?? '' };
  return (await formPipe.transform(fields, { type: 'body', metatype: dto })) as T;
}
