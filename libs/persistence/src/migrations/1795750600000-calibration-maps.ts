import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Calibrated confidence (docs/quality.md, "Calibration"): each question's last fit, keyed by its
 * owner, pack, question id and the fingerprint of its wording, so a later version asking the same
 * question keeps the map and a reworded one has none. A fit with too few labels is a row too
 * (method and points null): it records when the pack was last fitted, which the worker's refit
 * schedule counts new labels from.
 */
export class CalibrationMaps1795750600000 implements MigrationInterface {
  name = 'CalibrationMaps1795750600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE calibration_maps (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        question_id text NOT NULL,
        fingerprint text NOT NULL,
        method text CONSTRAINT calibration_maps_method_check CHECK (method IN ('platt', 'isotonic')),
        labels integer NOT NULL,
        points jsonb,
        fitted_at timestamptz NOT NULL,
        PRIMARY KEY (user_id, pack_id, question_id, fingerprint),
        CONSTRAINT calibration_maps_points_check CHECK ((method IS NULL) = (points IS NULL))
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE calibration_maps`);
  }
}
