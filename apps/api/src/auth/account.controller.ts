import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  AccountService,
  Authenticated,
  CurrentPrincipal,
  ErrorBodyDto,
  Public,
  SessionCookie,
  type Principal,
} from '@app/auth';
import { SignInDto, SignUpDto, UserResponseDto } from './account.dto.js';

@ApiTags('auth')
@Controller('api/auth')
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly sessionCookie: SessionCookie,
  ) {}

  @Post('sign-up')
  @Public()
  @ApiOperation({ summary: 'Create an account and sign in (sets the session cookie)' })
  @ApiCreatedResponse({ type: UserResponseDto })
  @ApiConflictResponse({ description: '`email already registered`', type: ErrorBodyDto })
  @ApiTooManyRequestsResponse({
    description:
      'More than `SIGN_UP_LIMIT_PER_HOUR` sign-ups (default 20) from this client IP in the hour, counting those refused with 409; `Retry-After` gives the seconds until the window ends',
    type: ErrorBodyDto,
    headers: {
      'Retry-After': {
        description: 'Seconds until the next sign-up is allowed',
        schema: { type: 'integer' },
      },
    },
  })
  async signUp(
    @Body() body: SignUpDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserResponseDto> {
    const user = await this.accounts.signUp(body.email, body.password, request.ip);
    await this.sessionCookie.start(user.id, reply);
    return { user };
  }

  @Post('sign-in')
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Sign in with email and password (sets the session cookie)' })
  @ApiOkResponse({ type: UserResponseDto })
  @ApiUnauthorizedResponse({ description: '`invalid email or password`', type: ErrorBodyDto })
  @ApiTooManyRequestsResponse({
    description:
      'Too many failed attempts for this email or IP. Once an email has 10 failures in 15 minutes, only an address with no failure for it is still checked, after a 1 s delay, 10 times per window',
    type: ErrorBodyDto,
  })
  async signIn(
    @Body() body: SignInDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserResponseDto> {
    const user = await this.accounts.signIn(body.email, body.password, request.ip);
    await this.sessionCookie.start(user.id, reply);
    return { user };
  }

  @Post('sign-out')
  @HttpCode(204)
  @Authenticated({ sessionOnly: true })
  @ApiOperation({ summary: 'Sign out: the session is revoked on the server' })
  @ApiNoContentResponse()
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessionCookie.end(request, reply);
  }

  @Get('me')
  @Authenticated({ sessionOnly: true })
  @ApiOperation({ summary: 'The signed-in user' })
  @ApiOkResponse({ type: UserResponseDto })
  async me(@CurrentPrincipal() principal: Principal): Promise<UserResponseDto> {
    return { user: await this.accounts.get(principal.userId) };
  }
}
