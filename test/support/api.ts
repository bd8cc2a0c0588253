import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../apps/api/src/app.factory.js';
import { loadConfig, type AppConfig } from '../../libs/config/src/index.js';

export interface TestApi {
  app: NestFastifyApplication;
  url: string;
  config: AppConfig;
  close(): Promise<void>;
}

/** Boots the real API (Fastify, Postgres, Redis) on a free port of 127.0.0.1. */
export async function startApi(
  env: Record<string, string> = {},
  extraModules: DynamicModule['imports'] = [],
): Promise<TestApi> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    MIGRATE_ON_START: 'false',
    ...env,
  });
  const app = await createApiApp(config, extraModules);
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  return { app, url: url.replace('[::1]', '127.0.0.1'), config, close: () => app.close() };
}
