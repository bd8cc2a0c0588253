import { describe, expect, it } from '@jest/globals';
import type { LoggerService } from '@nestjs/common';
import { withQuietBoot } from './quiet-boot.js';

function recorder() {
  const calls: Array<[string, unknown[]]> = [];
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void calls.push([level, args]);
  const logger: LoggerService = {
    log: record('info'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
    verbose: record('verbose'),
    fatal: record('fatal'),
  };
  return { calls, logger };
}

describe('withQuietBoot', () => {
  it("logs Nest's module, controller and route lines at debug, everything else as given", () => {
    const { calls, logger } = recorder();
    const quiet = withQuietBoot(logger);
    quiet.log('Mapped {/api/packs, GET} route', 'RouterExplorer');
    quiet.log('PacksController {/api/packs}:', 'RoutesResolver');
    quiet.log('AppModule dependencies initialized', 'InstanceLoader');
    quiet.log('API listening on http://127.0.0.1:3000', 'Api');
    quiet.log({ signal: 'SIGTERM' }, 'API stopping', 'Api');
    quiet.warn('RouterExplorer said something odd', 'RouterExplorer');
    quiet.error('boom', 'stack', 'ExceptionsHandler');
    expect(calls).toEqual([
      ['debug', ['Mapped {/api/packs, GET} route', 'RouterExplorer']],
      ['debug', ['PacksController {/api/packs}:', 'RoutesResolver']],
      ['debug', ['AppModule dependencies initialized', 'InstanceLoader']],
      ['info', ['API listening on http://127.0.0.1:3000', 'Api']],
      ['info', [{ signal: 'SIGTERM' }, 'API stopping', 'Api']],
      ['warn', ['RouterExplorer said something odd', 'RouterExplorer']],
      ['error', ['boom', 'stack', 'ExceptionsHandler']],
    ]);
  });
});
