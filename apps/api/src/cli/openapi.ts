import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { loadConfigOrExit } from '@app/config';
import { AppModule } from '../app.module.js';
import { buildOpenApiDocument } from '../openapi.js';

/**
 * `node dist/apps/api/src/cli/openapi.js`: prints the OpenAPI document as served at
 * /docs/openapi.json, without Postgres or Redis (Nest's preview mode builds the module graph
 * without starting providers). The API types of the TypeScript client and the web app are generated from it (`npm run client:types`).
 */
const config = loadConfigOrExit();
const app = await NestFactory.create(AppModule.forRoot(config), new FastifyAdapter(), {
  preview: true,
  logger: false,
});
process.stdout.write(`${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
await app.close();
