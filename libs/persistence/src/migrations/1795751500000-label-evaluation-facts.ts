import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The columns a label copies from its evaluation (the backfill). */
const COPIED = `
        pack_version_id = e.pack_version_id,
        judge_answer = e.result -> 'answers' -> l.question_id,
        evaluation_status = e.status,
        audit_selected = e.audit_selected,
        audit_probability = e.audit_probability,
        evaluation_created_at = e.created_at`;

/**
 * Labels carry the facts of their evaluation that the quality and calibration reports read: its pack
 * version, the judge's answer to the label's question, its status, whether the audit drew it and with
 * what probability, and when it was judged (issue 26, goal 4).
 *
 * Both reports read every label of a pack version: 10,000 labels of 5,000 audit draws in bench:stats.
 * They joined each to its evaluation, a random read of a row among ten million and of its result
 * document per label, and the calibration report did it twice (all labels, then the audit draws).
 * With the copies, a report reads the version's labels on one index and never an evaluation.
 *
 * A BEFORE INSERT trigger fills the copies from the evaluation, so every writer of labels (the
 * service, and the tests and benchmarks that insert them directly) gets them. The copied columns of
 * an evaluation never change once it is stored (only `labeled` does), and a label never moves to
 * another evaluation or question (the upsert replaces only the answer, note and agreement), so the
 * copies stay exact; the trigger also runs if either were ever updated.
 *
 * The partial index of labeled audit draws on evaluations (`evaluations_audit_labeled_idx`) served
 * only the old read. It stays for this release: during a rollout the old release's replicas still
 * read through it (docs/deploy.md: drop the old in a later release), and dropping it here would lock
 * `evaluations` while `labels` is locked, the reverse of a label write's order (deadlock).
 *
 * Locking: `labels` is locked up front for the whole migration (ACCESS EXCLUSIVE, as its ALTER
 * needs): label reads and writes wait until it commits, which takes one UPDATE of every label
 * (about 19 s a million labels on the 2-core benchmark machine, docs/performance.md). `evaluations`
 * is only read, so judging goes on.
 */
export class LabelEvaluationFacts1795751500000 implements MigrationInterface {
  name = 'LabelEvaluationFacts1795751500000';

  async up(db: QueryRunner): Promise<void> {
    // No label may be written between the backfill and the trigger.
    await db.query(`LOCK TABLE labels IN ACCESS EXCLUSIVE MODE`);
    await db.query(`
      ALTER TABLE labels
        ADD COLUMN pack_version_id uuid,
        ADD COLUMN judge_answer jsonb,
        ADD COLUMN evaluation_status text,
        ADD COLUMN audit_selected boolean,
        ADD COLUMN audit_probability double precision,
        ADD COLUMN evaluation_created_at timestamptz`);
    await db.query(`UPDATE labels l SET ${COPIED} FROM evaluations e WHERE e.id = l.evaluation_id`);
    await db.query(`
      ALTER TABLE labels
        ALTER COLUMN pack_version_id SET NOT NULL,
        ALTER COLUMN evaluation_status SET NOT NULL,
        ALTER COLUMN evaluation_created_at SET NOT NULL`);
    await db.query(`
      CREATE FUNCTION label_copy_evaluation() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT e.pack_version_id, e.result -> 'answers' -> NEW.question_id, e.status, e.audit_selected,
               e.audit_probability, e.created_at
          INTO NEW.pack_version_id, NEW.judge_answer, NEW.evaluation_status, NEW.audit_selected,
               NEW.audit_probability, NEW.evaluation_created_at
          FROM evaluations e
         WHERE e.id = NEW.evaluation_id;
        RETURN NEW;
      END $$`);
    await db.query(`
      CREATE TRIGGER labels_copy_evaluation BEFORE INSERT OR UPDATE OF evaluation_id, question_id ON labels
        FOR EACH ROW EXECUTE FUNCTION label_copy_evaluation()`);
    await db.query(
      `CREATE INDEX labels_pack_version_idx ON labels (pack_version_id, evaluation_created_at, evaluation_id)`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER labels_copy_evaluation ON labels`);
    await db.query(`DROP FUNCTION label_copy_evaluation()`);
    await db.query(`DROP INDEX labels_pack_version_idx`);
    await db.query(`
      ALTER TABLE labels
        DROP COLUMN pack_version_id,
        DROP COLUMN judge_answer,
        DROP COLUMN evaluation_status,
        DROP COLUMN audit_selected,
        DROP COLUMN audit_probability,
        DROP COLUMN evaluation_created_at`);
  }
}
