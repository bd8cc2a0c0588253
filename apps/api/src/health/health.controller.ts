import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@app/auth';
import { ReadinessService } from '@app/persistence';

@ApiTags('health')
@Controller()
@Public()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('healthz')
  @ApiOperation({ summary: 'Liveness: the process is up' })
  @ApiOkResponse({ schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOperation({ summary: 'Readiness: Postgres and Redis are reachable' })
  @ApiOkResponse({ schema: { example: { status: 'ok', checks: { database: 'up', redis: 'up' } } } })
  @ApiServiceUnavailableResponse({
    schema: { example: { error: 'not ready', checks: { database: 'up', redis: 'down' } } },
  })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const { ready, checks } = await this.readiness.check();
    if (ready) return { status: 'ok', checks };
    reply.status(503);
    return { error: 'not ready', checks };
  }
}
