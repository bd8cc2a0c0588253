import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AccountService, ApiKeyService, AuthModule } from '@app/auth';
import { ConfigModule, loadConfigOrExit } from '@app/config';
import { PackService, PacksModule } from '@app/packs';
import { PersistenceModule, UserRepository } from '@app/persistence';
import { DEMO_EMAIL } from './demo-account.js';

const SAMPLE_PACK = 'examples/packs/support-triage.json';

/** The repository root: the nearest folder above this file holding package.json (src or dist). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return dir;
}

/**
 * `npm start` runs this outside production: on first start it creates a demo user, an API key and
 * the published sample pack, and prints them with a ready-to-paste curl command; later starts only
 * say the user exists.
 */
const config = loadConfigOrExit();
if (config.nodeEnv === 'production') {
  process.stdout.write('[seed] skipped: NODE_ENV=production\n');
  process.exit(0);
}

@Module({
  imports: [
    ConfigModule.forRoot(config),
    PersistenceModule.forRoot({ runMigrations: false }),
    AuthModule,
    PacksModule,
  ],
})
class SeedModule {}

const app = await NestFactory.createApplicationContext(SeedModule, { logger: ['error'] });
try {
  if (await app.get(UserRepository).findByEmail(DEMO_EMAIL)) {
    process.stdout.write(
      `[seed] demo user ${DEMO_EMAIL} exists (its password and key were printed at first start)\n`,
    );
  } else {
    const sample = JSON.parse(readFileSync(join(projectRoot(), SAMPLE_PACK), 'utf8')) as {
      name: string;
      document: unknown;
    };
    const password = randomBytes(9).toString('base64url');
    const user = await app.get(AccountService).create(DEMO_EMAIL, password);
    const key = await app.get(ApiKeyService).create(user.id, 'demo key');
    const packs = app.get(PackService);
    const pack = await packs.publish(user.id, (await packs.create(user.id, sample.name, sample.document)).id);
    const base = `http://localhost:${config.port}`;
    const ticket = {
      subject: 'Charged twice for March',
      customerMessage:
        'Hi, I was charged twice for my March subscription. Please refund the duplicate payment. My email is jane@example.com.',
    };
    process.stdout.write(
      [
        '',
        '[seed] Demo account created (shown once):',
        `  email:    ${DEMO_EMAIL}`,
        `  password: ${password}`,
        `  API key:  ${key.secret}`,
        `  pack:     ${pack.name} (${pack.id}), published`,
        '',
        '  Judge a ticket:',
        `    curl -s ${base}/api/judge -H "x-api-key: ${key.secret}" -H "content-type: application/json" \\`,
        `      -d '${JSON.stringify({ packId: pack.id, ticket })}'`,
        '',
        `  Web app:       ${base}/ (sign in with the email and password above)`,
        `  API reference: ${base}/docs`,
        '',
      ].join('\n') + '\n',
    );
  }
} finally {
  await app.close();
}
