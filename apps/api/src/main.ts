import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { loadConfigOrExit } from '@app/config';
import { warmUpRedaction } from '@app/domain';
import { createApiApp } from './app.factory.js';

const config = loadConfigOrExit();
warmUpRedaction();
const app = await createApiApp(config);
const logger = new Logger('Api');
for (const warning of config.warnings) logger.warn(warning);
await app.listen(config.port, '0.0.0.0');
logger.log(`API listening on ${await app.getUrl()} (docs at /docs)`);
