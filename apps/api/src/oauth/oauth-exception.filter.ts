import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '@app/oauth';
import { sendError } from '../errors/api-exception.filter.js';

/**
 * The OAuth endpoints answer errors with the OAuth body `{error, error_description}` (RFC 6749
 * §5.2), which clients' OAuth libraries parse; anything else thrown is mapped as everywhere else
 * (and logged when unexpected), then given the OAuth body too.
 */
@Catch()
export class OAuthExceptionFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    void reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
    if (!(error instanceof OAuthError)) {
      sendError(reply, error, (err) => request.log.error({ err }, 'unhandled error'), { oauth: true });
      return;
    }
    if (error.code === 'invalid_client' && request.headers.authorization?.startsWith('Basic ')) {
      void reply.header('WWW-Authenticate', 'Basic realm="oauth"');
    }
    if (error.retryAfterSeconds !== undefined)
      void reply.header('Retry-After', String(error.retryAfterSeconds));
    void reply.status(error.status).send(error.toBody());
  }
}
