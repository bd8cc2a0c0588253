import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { isUuid, type PackDocument } from '@app/domain';
import { LiveVersionCache } from '../cache/live-version.cache.js';
import { PackVersionEntity } from '../entities/pack-version.entity.js';

/** A pack with its draft document and, when published, its live document. */
export interface PackRecord {
  id: string;
  name: string;
  draftVersionId: string;
  liveVersionId: string | null;
  updatedAt: Date;
  document: PackDocument;
  liveDocument: PackDocument | null;
}

export interface PackListRow {
  id: string;
  name: string;
  liveVersionId: string | null;
  updatedAt: Date;
  questionCount: number;
  unpublishedChanges: boolean;
}

export interface PackVersionRow {
  id: string;
  createdAt: Date;
  publishedAt: Date | null;
}

interface PackRow {
  id: string;
  name: string;
  draft_version_id: string;
  live_version_id: string | null;
  updated_at: Date;
  document: PackDocument;
  live_document: PackDocument | null;
}

const SELECT_PACK = `
  SELECT p.id, p.name, p.draft_version_id, p.live_version_id, p.updated_at,
         d.document, l.document AS live_document
    FROM packs p
    JOIN pack_versions d ON d.id = p.draft_version_id
    LEFT JOIN pack_versions l ON l.id = p.live_version_id
   WHERE p.user_id = $1 AND p.id = $2 AND p.deleted_at IS NULL`;

function toRecord(row: PackRow): PackRecord {
  return {
    id: row.id,
    name: row.name,
    draftVersionId: row.draft_version_id,
    liveVersionId: row.live_version_id,
    updatedAt: row.updated_at,
    document: row.document,
    liveDocument: row.live_document,
  };
}

/** Packs and their versions, always scoped by owner. A deleted pack is not found by any method. */
@Injectable()
export class PackRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly liveVersions: LiveVersionCache,
  ) {}

  async create(userId: string, name: string, document: PackDocument): Promise<PackRecord> {
    const packId = randomUUID();
    const versionId = randomUUID();
    await this.dataSource.transaction(async (tx) => {
      await tx.query(`INSERT INTO packs (id, user_id, name, draft_version_id) VALUES ($1, $2, $3, $4)`, [
        packId,
        userId,
        name,
        versionId,
      ]);
      await tx.query(`INSERT INTO pack_versions (id, pack_id, user_id, document) VALUES ($1, $2, $3, $4)`, [
        versionId,
        packId,
        userId,
        JSON.stringify(document),
      ]);
    });
    return (await this.find(userId, packId))!;
  }

  /**
   * Newest first. jsonb equality ignores key order, so `unpublishedChanges` is a deep comparison
   * done by Postgres; without a live version it is true as soon as the draft has questions.
   */
  async list(userId: string): Promise<PackListRow[]> {
    const rows: Array<{
      id: string;
      name: string;
      live_version_id: string | null;
      updated_at: Date;
      question_count: number;
      unpublished_changes: boolean;
    }> = await this.dataSource.query(
      `SELECT p.id, p.name, p.live_version_id, p.updated_at,
              jsonb_array_length(d.document -> 'questions') AS question_count,
              CASE WHEN l.id IS NULL THEN jsonb_array_length(d.document -> 'questions') > 0
                   ELSE d.document <> l.document END AS unpublished_changes
         FROM packs p
         JOIN pack_versions d ON d.id = p.draft_version_id
         LEFT JOIN pack_versions l ON l.id = p.live_version_id
        WHERE p.user_id = $1 AND p.deleted_at IS NULL
        ORDER BY p.updated_at DESC, p.id DESC`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      liveVersionId: row.live_version_id,
      updatedAt: row.updated_at,
      questionCount: row.question_count,
      unpublishedChanges: row.unpublished_changes,
    }));
  }

  async find(userId: string, packId: string): Promise<PackRecord | null> {
    if (!isUuid(packId)) return null;
    const rows: PackRow[] = await this.dataSource.query(SELECT_PACK, [userId, packId]);
    return rows[0] ? toRecord(rows[0]) : null;
  }

  /** Edits the name and/or the draft document; the live version is never touched here. */
  async update(
    userId: string,
    packId: string,
    changes: { name?: string; document?: PackDocument },
  ): Promise<PackRecord | null> {
    if (!isUuid(packId)) return null;
    const found = await this.dataSource.transaction(async (tx) => {
      const pack = await this.lock(tx, userId, packId);
      if (!pack) return false;
      if (changes.document) {
        await tx.query(`UPDATE pack_versions SET document = $1 WHERE id = $2 AND published_at IS NULL`, [
          JSON.stringify(changes.document),
          pack.draft_version_id,
        ]);
      }
      await tx.query(`UPDATE packs SET name = COALESCE($1, name), updated_at = now() WHERE id = $2`, [
        changes.name ?? null,
        packId,
      ]);
      return true;
    });
    return found ? this.find(userId, packId) : null;
  }

  /** Freezes the draft as the live version and opens a new draft holding the same document. */
  async publish(userId: string, packId: string): Promise<PackRecord | null> {
    if (!isUuid(packId)) return null;
    const found = await this.dataSource.transaction(async (tx) => {
      const pack = await this.lock(tx, userId, packId);
      if (!pack) return false;
      const newDraftId = randomUUID();
      await tx.query(`UPDATE pack_versions SET published_at = now() WHERE id = $1`, [pack.draft_version_id]);
      await tx.query(
        `INSERT INTO pack_versions (id, pack_id, user_id, document)
         SELECT $1, pack_id, user_id, document FROM pack_versions WHERE id = $2`,
        [newDraftId, pack.draft_version_id],
      );
      await tx.query(
        `UPDATE packs SET live_version_id = draft_version_id, draft_version_id = $1, updated_at = now() WHERE id = $2`,
        [newDraftId, packId],
      );
      return true;
    });
    if (!found) return null;
    await this.liveVersions.invalidate(userId, packId);
    return this.find(userId, packId);
  }

  /** Soft delete: the pack disappears, its versions stay for the evaluations that refer to them. */
  async delete(userId: string, packId: string): Promise<boolean> {
    if (!isUuid(packId)) return false;
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE packs SET deleted_at = now() WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL`,
      [userId, packId],
    );
    if (affected > 0) await this.liveVersions.invalidate(userId, packId);
    return affected > 0;
  }

  /** Versions newest first, or null when the pack does not exist for this user. */
  async listVersions(userId: string, packId: string): Promise<PackVersionRow[] | null> {
    if (!(await this.find(userId, packId))) return null;
    const versions = await this.dataSource.getRepository(PackVersionEntity).find({
      where: { packId, userId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
    return versions.map(({ id, createdAt, publishedAt }) => ({ id, createdAt, publishedAt }));
  }

  /** The named versions of a live pack of this user (unknown or foreign ids are simply absent). */
  async findVersions(userId: string, packId: string, versionIds: string[]): Promise<PackVersionEntity[]> {
    const ids = versionIds.filter(isUuid);
    if (!ids.length || !(await this.find(userId, packId))) return [];
    return this.dataSource
      .getRepository(PackVersionEntity)
      .createQueryBuilder('v')
      .where('v.user_id = :userId AND v.pack_id = :packId AND v.id IN (:...ids)', { userId, packId, ids })
      .getMany();
  }

  private async lock(
    tx: EntityManager,
    userId: string,
    packId: string,
  ): Promise<{ draft_version_id: string } | undefined> {
    const rows: Array<{ draft_version_id: string }> = await tx.query(
      `SELECT draft_version_id FROM packs WHERE user_id = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [userId, packId],
    );
    return rows[0];
  }
}
