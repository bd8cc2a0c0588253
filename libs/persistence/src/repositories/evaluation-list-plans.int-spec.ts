import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options.js';
import { evaluationSearchTerms } from '../statements/evaluation-search.js';
import { countEvaluations, listEvaluations } from '../statements/evaluations.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import { EvaluationRepository, FEW_MATCHES } from './evaluation.repository.js';
import { insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';

/** Rows of the common word: 3 subjects in 4 hold "refund", so that the planner expects more than FEW_MATCHES. */
const ROWS = Math.ceil((FEW_MATCHES * 2) / 0.75);
const CLUSTERED_ROWS = 120;

/**
 * The two ways GET /api/evaluations reads a search (evaluations.statements.ts, `ListPlan`): which
 * one the repository takes, and that both give the same pages and totals.
 */
describe('EvaluationRepository: the plan of a search', () => {
  let dataSource: DataSource;
  let sql: PreparedSql;
  let evaluations: EvaluationRepository;
  const owner = newPackOwner();

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    sql = new PreparedSql(dataSource);
    evaluations = new EvaluationRepository(dataSource, new EvaluationInserts(sql), sql);
    await dataSource.transaction(async (tx) => {
      await insertPackOwner((text, params) => tx.query(text, params), owner);
      // Subjects of four kinds, three holding "refund"; ids "R-<n>", one a minute. Then a cluster of
      // ids "Z-00<n>" created together ten days back.
      const insert = (rows: number, id: string, createdAt: string) =>
        tx.query(
          `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                    model_id, latency_ms, input_tokens, output_tokens, created_at)
           SELECT gen_random_uuid(), $1, $2, $3, 'api', 'accept',
                  jsonb_build_object('externalId', ${id}, 'customerMessage', 'm', 'subject',
                    (ARRAY['Refund for order', 'Refund not received', 'Login problem', 'Refund delay'])[n % 4 + 1] || ' ' || n),
                  '{"status":"accept","answers":{},"reviewReasons":[],"modelId":"m","latencyMs":1}', 'm', 1, 1, 1,
                  ${createdAt}
             FROM generate_series(1, $4::int) AS n`,
          [owner.userId, owner.packId, owner.packVersionId, rows],
        );
      await insert(ROWS, `'R-' || n`, `now() - n * interval '1 minute'`);
      await insert(
        CLUSTERED_ROWS,
        `'Z-00' || lpad(n::text, 4, '0')`,
        `now() - interval '10 days' - n * interval '1 second'`,
      );
    });
    // The planner's estimates come from the statistics, as they would after autovacuum's analyze.
    await dataSource.query('ANALYZE evaluations');
  });
  afterAll(() => dataSource.destroy());

  const plansRun = async (run: () => Promise<unknown>): Promise<string[]> => {
    const rows = jest.spyOn(sql, 'rows');
    const first = jest.spyOn(sql, 'first');
    try {
      await run();
      return [...rows.mock.calls, ...first.mock.calls].map(([statement]) => statement.name);
    } finally {
      rows.mockRestore();
      first.mockRestore();
    }
  };

  it('reads a search with few matches through the search indexes, and one with many in the list order', async () => {
    const clustered = await plansRun(async () => {
      await evaluations.list(owner.userId, { q: 'Z-00' }, 'newest', null, 50);
      await evaluations.count(owner.userId, { q: 'Z-00' }, 1_000);
    });
    expect(clustered).toEqual(
      expect.arrayContaining(['evaluations.list[newest, matchesFirst]', 'evaluations.count[matchesFirst]']),
    );
    const common = await plansRun(async () => {
      await evaluations.list(owner.userId, { q: 'refund' }, 'newest', null, 50);
      await evaluations.count(owner.userId, { q: 'refund' }, 1_000);
    });
    expect(common).toEqual(expect.arrayContaining(['evaluations.list[newest]', 'evaluations.count']));
    expect(common.some((name) => name.includes('matchesFirst'))).toBe(false);
    // No search: no estimate is asked for.
    expect(await plansRun(() => evaluations.list(owner.userId, {}, 'newest', null, 50))).toEqual([
      'evaluations.list[newest]',
    ]);
  });

  it('gives the same pages, cursors and totals by either plan', async () => {
    for (const q of ['Z-00', 'Z-0001', 'refund 1', 'R-2999']) {
      const filters = { userId: owner.userId, ...evaluationSearchTerms(q)! };
      for (const order of ['newest', 'oldest'] as const) {
        const pages: string[][] = [];
        for (const plan of ['walk', 'matchesFirst'] as const) {
          const first = await sql.rows(listEvaluations[plan][order], { ...filters, limit: 30 });
          const last = first[first.length - 1];
          const second = await sql.rows(listEvaluations[plan][order], {
            ...filters,
            limit: 30,
            afterAt: last.createdAt.toISOString(),
            afterId: last.id,
          });
          pages.push([...first, ...second].map((row) => row.id));
        }
        expect(pages[0].length).toBeGreaterThan(0);
        expect(pages[1]).toEqual(pages[0]);
      }
      const [walk, matchesFirst] = await Promise.all(
        (['walk', 'matchesFirst'] as const).map((plan) =>
          sql.first(countEvaluations[plan], { ...filters, cap: 1_001 }),
        ),
      );
      expect(matchesFirst).toEqual(walk);
    }
  });
});
