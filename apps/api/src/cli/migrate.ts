import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadConfigOrExit } from '@app/config';
import { dataSourceOptions } from '@app/persistence';

/** `npm run migrate`: applies pending migrations and exits. */
const config = loadConfigOrExit();
const dataSource = await new DataSource(dataSourceOptions(config.databaseUrl, { poolSize: 1 })).initialize();
try {
  const applied = await dataSource.runMigrations({ transaction: 'each' });
  process.stdout.write(
    `[migrate] ${applied.length} migration(s) applied${applied.map((m) => `\n  ${m.name}`).join('')}\n`,
  );
} finally {
  await dataSource.destroy();
}
