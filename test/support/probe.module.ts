import { Controller, Get, Module, Post } from '@nestjs/common';
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

@Module({ controllers: [...PERMISSIONS.map(probeController), FailureController] })
export class ProbeModule {}
