import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { InvalidatedCache, type CacheInvalidation } from '@app/cache';
import { questionFingerprint, type PackDocument } from '@app/domain';
import { CalibrationMapCache } from '../cache/calibration-map.cache.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { CalibrationMapRepository } from './calibration-map.repository.js';

const document: PackDocument = {
  questions: [
    {
      type: 'boolean',
      id: 'abusive',
      name: 'Abusive',
      instructions: 'Insults?',
      criteria: {},
      review: { minSelectedProbability: 0.6 },
    },
  ],
};

/**
 * The calibration statements on the migrated schema: the labels a fit reads (with the audit draw),
 * its write and the read cache's statement, and the worker's refit candidates.
 */
describe('CalibrationMapRepository', () => {
  let dataSource: DataSource;
  let maps: CalibrationMapRepository;
  let cache: CalibrationMapCache;
  const userId = randomUUID();
  const packId = randomUUID();
  const live = randomUUID();
  const draft = randomUUID();

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    const sql = new PreparedSql(dataSource);
    // Caches off (as in a process that cannot reach Redis): every read goes to Postgres.
    const invalidation = {
      register: (name: string) => new InvalidatedCache(name, { ttlMs: 1, maxEntries: 1 }, () => false),
      invalidate: () => Promise.resolve(),
    } as unknown as CacheInvalidation;
    cache = new CalibrationMapCache(invalidation, sql);
    maps = new CalibrationMapRepository(sql, cache);
    await dataSource.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [
      userId,
      `${userId}@t`,
    ]);
    await dataSource.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO packs (id, user_id, name, draft_version_id, live_version_id) VALUES ($1, $2, 'p', $3, $4)`,
        [packId, userId, draft, live],
      );
      await tx.query(
        `INSERT INTO pack_versions (id, pack_id, user_id, document, published_at)
         VALUES ($1, $3, $4, $5, now()), ($2, $3, $4, $5, NULL)`,
        [live, draft, packId, userId, JSON.stringify(document)],
      );
    });
  });
  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [userId]);
    await dataSource.destroy();
  });

  /** An evaluation answering `abusive` at `probability`, with an audit draw, and a label on it. */
  async function labeled(
    versionId: string,
    probability: number | null,
    agreement: boolean,
    draw: { probability: number; selected: boolean } | null,
  ): Promise<string> {
    const id = randomUUID();
    const answers = probability === null ? {} : { abusive: { type: 'boolean', probability } };
    await dataSource.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, audit_probability, audit_selected, labeled)
       VALUES ($1, $2, $3, $4, 'api', 'accept', '{"subject":"s","customerMessage":"m"}',
               jsonb_build_object('status', 'accept', 'answers', $5::jsonb, 'reviewReasons', '[]'::jsonb,
                                  'modelId', 'm', 'latencyMs', 1),
               'm', 1, $6, $7, true)`,
      [
        id,
        userId,
        packId,
        versionId,
        JSON.stringify(answers),
        draw?.probability ?? null,
        draw?.selected ?? null,
      ],
    );
    await dataSource.query(
      `INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, agreement)
       VALUES ($1, $2, $3, 'abusive', '{"type":"boolean","probability":1}', $4)`,
      [randomUUID(), userId, id, agreement],
    );
    return id;
  }

  it("reads the labels of the given versions' questions with the judge's answer and the audit draw", async () => {
    await labeled(live, 0.9, true, { probability: 0.05, selected: true });
    await labeled(live, 0.2, false, { probability: 0.05, selected: false });
    await labeled(live, 0.7, true, null);
    await labeled(live, null, false, null); // a failed judgment: no answer, not a training pair
    await labeled(draft, 0.9, true, null); // a version not asked for
    const rows = await maps.labels(userId, packId, [{ versionId: live, questionId: 'abusive' }]);
    expect(
      rows.sort(
        (a, b) =>
          (a.judgeAnswer as { probability: number }).probability -
          (b.judgeAnswer as { probability: number }).probability,
      ),
    ).toEqual([
      {
        questionId: 'abusive',
        judgeAnswer: { type: 'boolean', probability: 0.2 },
        agreed: false,
        auditSelected: false,
        auditProbability: 0.05,
      },
      {
        questionId: 'abusive',
        judgeAnswer: { type: 'boolean', probability: 0.7 },
        agreed: true,
        auditSelected: null,
        auditProbability: null,
      },
      {
        questionId: 'abusive',
        judgeAnswer: { type: 'boolean', probability: 0.9 },
        agreed: true,
        auditSelected: true,
        auditProbability: 0.05,
      },
    ]);
    expect(await maps.labels(userId, packId, [{ versionId: live, questionId: 'other' }])).toEqual([]);
    expect(await maps.labels(randomUUID(), packId, [{ versionId: live, questionId: 'abusive' }])).toEqual([]);
    // A version is read only as the given pack's.
    expect(await maps.labels(userId, randomUUID(), [{ versionId: live, questionId: 'abusive' }])).toEqual([]);
    expect((await maps.publishedVersions(userId, packId)).map((version) => version.id)).toEqual([live]);
  });

  it('lists the pack as a refit candidate with its new labels, until a fit; then stores and reads the maps', async () => {
    const mine = async () =>
      (await maps.refitCandidates()).filter((candidate) => candidate.packId === packId);
    // Five labels so far (the draft's included: any label of the pack is news), never fitted.
    expect(await mine()).toEqual([{ userId, packId, newLabels: 5, lastFittedAt: null }]);

    const fingerprint = questionFingerprint(document.questions[0]);
    const points = [
      { selectedProbability: 0, calibrated: 0.3 },
      { selectedProbability: 1, calibrated: 0.7 },
    ];
    const fittedAt = new Date(Date.now() + 1000);
    await maps.saveFits(
      userId,
      packId,
      [{ questionId: 'abusive', fingerprint, method: 'platt', labels: 3, points }],
      fittedAt,
    );
    expect(await mine()).toEqual([]);
    const found = await cache.find(userId, packId, live, document);
    expect([...found]).toEqual([['abusive', { method: 'platt', labels: 3, points, fittedAt }]]);

    // A later fit with too few labels replaces the map by none: the row stays, for its time.
    const later = new Date(fittedAt.getTime() + 1000);
    await maps.saveFits(
      userId,
      packId,
      [{ questionId: 'abusive', fingerprint, method: null, labels: 2, points: null }],
      later,
    );
    expect((await cache.find(userId, packId, live, document)).size).toBe(0);
    const [row] = await dataSource.query(
      `SELECT method, labels, points, fitted_at AS "fittedAt" FROM calibration_maps WHERE pack_id = $1`,
      [packId],
    );
    expect(row).toEqual({ method: null, labels: 2, points: null, fittedAt: later });

    // Labels written after the last fit count as new.
    await dataSource.query(`UPDATE labels SET updated_at = $2 WHERE user_id = $1`, [
      userId,
      new Date(later.getTime() + 1000),
    ]);
    expect(await mine()).toEqual([{ userId, packId, newLabels: 5, lastFittedAt: later }]);
  });
});
