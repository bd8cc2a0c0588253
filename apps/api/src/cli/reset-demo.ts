import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { AccountService, AuthModule } from '@app/auth';
import { ConfigModule, loadConfigOrExit } from '@app/config';
import { NotFoundError } from '@app/domain';
import { PersistenceModule } from '@app/persistence';
import { DEMO_EMAIL } from './demo-account.js';

/**
 * `npm run demo:reset`: gives the demo user (created by `npm start`'s first start) a new random
 * password and prints it once. It writes to Postgres only, so it works while the service runs.
 */
const config = loadConfigOrExit();
if (config.nodeEnv === 'production') {
  process.stderr.write('[demo:reset] refused: NODE_ENV=production has no demo user\n');
  process.exit(1);
}

@Module({
  imports: [ConfigModule.forRoot(config), PersistenceModule.forRoot({ runMigrations: false }), AuthModule],
})
class ResetModule {}

const app = await NestFactory.createApplicationContext(ResetModule, { logger: ['error'] });
let code = 0;
try {
  const password = randomBytes(9).toString('base64url');
  await app.get(AccountService).resetPassword(DEMO_EMAIL, password);
  process.stdout.write(
    [
      '[demo:reset] New password for the demo user (shown once):',
      `  email:    ${DEMO_EMAIL}`,
      `  password: ${password}`,
      '',
    ].join('\n'),
  );
} catch (error) {
  if (!(error instanceof NotFoundError)) throw error;
  process.stderr.write(
    `[demo:reset] no demo user ${DEMO_EMAIL}: \`npm start\` creates it on its first start\n`,
  );
  code = 1;
} finally {
  await app.close();
}
process.exit(code);
