import 'reflect-metadata';
import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApiApp } from '../../apps/api/src/app.factory.js';
import { loadConfig, type AppConfig } from '../../libs/config/src/index.js';
import { TEST_SIGN_UP_LIMIT } from './sign-up-limit.js';

export interface TestApi {
  app: NestFastifyApplication;
  url: string;
  config: AppConfig;
  /** Every log line the app wrote, when started with `captureLogs` (LOG_LEVEL defaults to info then). */
  logs: LogCapture;
  close(): Promise<void>;
}

/** A pino destination that keeps the lines it is given, so tests can read what was logged. */
export class LogCapture {
  private lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  text(): string {
    return this.lines.join('');
  }

  clear(): void {
    this.lines = [];
  }
}

export interface StartApiOptions {
  extraModules?: DynamicModule['imports'];
  captureLogs?: boolean;
}

/** Boots the real API (Fastify, Postgres, Redis) on a free port of 127.0.0.1. */
export async function startApi(
  env: Record<string, string> = {},
  { extraModules = [], captureLogs = false }: StartApiOptions = {},
): Promise<TestApi> {
  const logs = new LogCapture();
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: captureLogs ? 'info' : (process.env.TEST_LOG_LEVEL ?? 'silent'),
    MIGRATE_ON_START: 'false',
    SIGN_UP_LIMIT_PER_HOUR: TEST_SIGN_UP_LIMIT,
    ...env,
  });
  const app = await createApiApp(config, {
    extraModules,
    logDestination: captureLogs ? logs : undefined,
  });
  await app.listen(0, '127.0.0.1');
  const url = await app.getUrl();
  return { app, url: url.replace('[::1]', '127.0.0.1'), config, logs, close: () => app.close() };
}
