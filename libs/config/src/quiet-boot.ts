import type { LoggerService } from '@nestjs/common';

/**
 * Nest's boot details, logged at info by default: a line per module (`InstanceLoader`), per
 * controller (`RoutesResolver`) and per route (`RouterExplorer`), about 150 in all for the API.
 * They are logged at debug instead, so a start shows what matters (warnings, `API listening`).
 */
export const BOOT_DETAIL_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** `logger` with Nest's boot details (see BOOT_DETAIL_CONTEXTS) moved from info to debug. */
export function withQuietBoot(logger: LoggerService): LoggerService {
  const isBootDetail = (params: unknown[]) => {
    const context = params.at(-1);
    return typeof context === 'string' && BOOT_DETAIL_CONTEXTS.has(context);
  };
  return {
    log: (message: unknown, ...params: unknown[]) => {
      if (isBootDetail(params) && logger.debug) logger.debug(message, ...params);
      else logger.log(message, ...params);
    },
    error: (message: unknown, ...params: unknown[]) => {
      logger.error(message, ...params);
    },
    warn: (message: unknown, ...params: unknown[]) => {
      logger.warn(message, ...params);
    },
    debug: (message: unknown, ...params: unknown[]) => {
      logger.debug?.(message, ...params);
    },
    verbose: (message: unknown, ...params: unknown[]) => {
      logger.verbose?.(message, ...params);
    },
    fatal: (message: unknown, ...params: unknown[]) => {
      logger.fatal?.(message, ...params);
    },
  };
}
