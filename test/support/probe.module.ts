import { Controller, Get, Module, Post } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Authenticated, CurrentPrincipal, type Principal } from '../../libs/auth/src/index.js';
import { PERMISSIONS, type Permission } from '../../libs/domain/src/index.js';

/**
 * Test-only routes, one per permission, that exercise the real global guard over HTTP with the
 * same decorator product routes use. Product routes are tested through their own suites.
 */
function probeController(permission: Permission) {
  const [resource, action] = permission.split(':');
  @Controller(`api/probe/${resource}/${action}`)
  class ProbeController {
    @Get()
    @Authenticated({ permission })
    read(@CurrentPrincipal() principal: Principal) {
      return { kind: principal.kind, userId: principal.userId };
    }

    @Post('key-only')
    @Authenticated({ permission, keyOnly: true })
    keyOnly(@CurrentPrincipal() principal: Principal) {
      return { kind: principal.kind, userId: principal.userId };
    }
  }
  return ProbeController;
}

/** A route that fails unexpectedly, with a cause that must never reach the client. */
@Controller('api/probe-failure')
class FailureController {
  @Get()
  @Authenticated({ permission: 'packs:read' })
  fail(): never {
    throw new Error('database password is hunter2 and the ticket said: my card is 4111');
  }
}

/** Text planted in a failing query's parameters; it must reach neither the client nor the logs. */
export const PLANTED_QUERY_SECRET = 'PLANTED-whsec_Zm9vYmFyYmF6cXV4cXV1eHh5eno-ticket text';

/** A route whose query fails in Postgres, echoing its parameter in the driver's message. */
@Controller('api/probe-query-failure')
class QueryFailureController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @Authenticated({ permission: 'packs:read' })
  async fail(): Promise<never> {
    await this.dataSource.query('SELECT $1::uuid AS id', [PLANTED_QUERY_SECRET]);
    throw new Error('unreachable: the query above fails');
  }
}

@Module({ controllers: [...PERMISSIONS.map(probeController), FailureController, QueryFailureController] })
export class ProbeModule {}
