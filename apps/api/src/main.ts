import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { describeListenError, loadConfigOrExit } from '@app/config';
import { warmUpRedaction } from '@app/domain';
import { createApiApp } from './app.factory.js';

const config = loadConfigOrExit();
warmUpRedaction();
const app = await createApiApp(config);
const logger = new Logger('Api');
for (const warning of config.warnings) logger.warn(warning);
try {
  // Fastify's own listen, after Nest's init: Nest's listen would log the raw error first.
  await app.init();
  await app.getHttpAdapter().getInstance().listen({ port: config.port, host: config.host });
} catch (error) {
  const reason = describeListenError(error, 'PORT', config.port, config.host);
  if (!reason) throw error;
  logger.error(reason);
  await app.close();
  process.exit(1);
}
logger.log(`API listening on http://${config.host}:${config.port} (the app at /, docs at /docs)`);
