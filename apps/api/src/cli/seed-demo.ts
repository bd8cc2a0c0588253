import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { AccountService, ApiKeyService, AuthModule } from '@app/auth';
import { ConfigModule, loadConfigOrExit } from '@app/config';
import { PersistenceModule, UserRepository } from '@app/persistence';

export const DEMO_EMAIL = 'demo@ticket-judge.local';

/**
 * `npm start` runs this outside production: on first start it creates a demo user and an API key
 * and prints them with a ready-to-paste curl command; later starts only say the user exists.
 */
const config = loadConfigOrExit();
if (config.nodeEnv === 'production') {
  process.stdout.write('[seed] skipped: NODE_ENV=production\n');
  process.exit(0);
}

@Module({
  imports: [ConfigModule.forRoot(config), PersistenceModule.forRoot({ runMigrations: false }), AuthModule],
})
class SeedModule {}

const app = await NestFactory.createApplicationContext(SeedModule, { logger: ['error'] });
try {
  if (await app.get(UserRepository).findByEmail(DEMO_EMAIL)) {
    process.stdout.write(
      `[seed] demo user ${DEMO_EMAIL} exists (its password and key were printed at first start)\n`,
    );
  } else {
    const password = randomBytes(9).toString('base64url');
    const user = await app.get(AccountService).signUp(DEMO_EMAIL, password);
    const key = await app.get(ApiKeyService).create(user.id, 'demo key');
    const base = `http://localhost:${config.port}`;
    process.stdout.write(
      [
        '',
        '[seed] Demo account created (shown once):',
        `  email:    ${DEMO_EMAIL}`,
        `  password: ${password}`,
        `  API key:  ${key.secret}`,
        '',
        '  Try it:',
        `    curl -s ${base}/readyz`,
        `  API reference: ${base}/docs`,
        '',
      ].join('\n') + '\n',
    );
  }
} finally {
  await app.close();
}
