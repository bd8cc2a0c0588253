import pg from 'pg';

/** One query on the run's test database, for checks and set-ups the API offers no route for. */
export async function queryDatabase<T = any>(sql: string, params: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(sql, params)).rows as T[];
  } finally {
    await db.end();
  }
}
