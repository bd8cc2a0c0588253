import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, In } from 'typeorm';
import {
  isUuid,
  type AuditSettings,
  type PackDocument,
  type PackPublication,
  type PackVersions,
} from '@app/domain';
import { LiveVersionCache } from '../cache/live-version.cache.js';
import { PackVersionEntity } from '../entities/pack-version.entity.js';
import {
  copyVersion,
  findAuditSettings,
  findPack,
  findPackVersion,
  freezeVersion,
  insertPack,
  insertVersion,
  listPacks,
  listPackVersions,
  lockForPublication,
  lockPack,
  setVersions,
  softDeletePack,
  touchPack,
  updateAuditSettings,
  updateDraftDocument,
  type PackListRow,
  type PackRecord,
  type PackVersionRow,
} from '../statements/packs.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export type { PackListRow, PackRecord, PackVersionRow };

/** Packs and their versions, always scoped by owner. A deleted pack is not found by any method. */
@Injectable()
export class PackRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly liveVersions: LiveVersionCache,
    private readonly sql: PreparedSql,
  ) {}

  async create(userId: string, name: string, document: PackDocument): Promise<PackRecord> {
    const packId = randomUUID();
    const versionId = randomUUID();
    await this.dataSource.transaction(async (tx) => {
      await this.sql.query(insertPack, { id: packId, userId, name, draftVersionId: versionId }, tx);
      await this.sql.query(insertVersion, { id: versionId, packId, userId, document }, tx);
    });
    return (await this.find(userId, packId))!;
  }

  list(userId: string): Promise<PackListRow[]> {
    return this.sql.rows(listPacks, { userId });
  }

  async find(userId: string, packId: string): Promise<PackRecord | null> {
    if (!isUuid(packId)) return null;
    return this.sql.first(findPack, { userId, packId });
  }

  /** Edits the name and/or the draft document; the live version is never touched here. */
  async update(
    userId: string,
    packId: string,
    changes: { name?: string; document?: PackDocument },
  ): Promise<PackRecord | null> {
    if (!isUuid(packId)) return null;
    const found = await this.dataSource.transaction(async (tx) => {
      const pack = await this.sql.first(lockPack, { userId, packId }, tx);
      if (!pack) return false;
      if (changes.document) {
        const draft = { versionId: pack.draftVersionId, document: changes.document };
        await this.sql.query(updateDraftDocument, draft, tx);
      }
      await this.sql.query(touchPack, { packId, name: changes.name ?? null }, tx);
      return true;
    });
    return found ? this.find(userId, packId) : null;
  }

  /**
   * Writes a publication with the pack row locked: `decide` gets the pack's versions and returns what
   * to write (the domain's `planPublication`, run by the pack service), or throws to refuse it, and
   * nothing is written. Null when the pack does not exist for this user.
   */
  async publish(
    userId: string,
    packId: string,
    decide: (pack: PackVersions) => PackPublication,
  ): Promise<PackRecord | null> {
    if (!isUuid(packId)) return null;
    const found = await this.dataSource.transaction(async (tx) => {
      const pack = await this.sql.first(lockForPublication, { userId, packId }, tx);
      if (!pack) return false;
      const { freezeVersionId, newDraft, liveVersionId, draftVersionId } = decide(pack);
      await this.sql.query(freezeVersion, { versionId: freezeVersionId }, tx);
      await this.sql.query(
        copyVersion,
        { newVersionId: newDraft.id, fromVersionId: newDraft.copiedFrom },
        tx,
      );
      await this.sql.query(setVersions, { packId, liveVersionId, draftVersionId }, tx);
      return true;
    });
    if (!found) return null;
    await this.liveVersions.invalidate(userId, packId);
    return this.find(userId, packId);
  }

  /** Soft delete: the pack disappears, its versions stay for the evaluations that refer to them. */
  async delete(userId: string, packId: string): Promise<boolean> {
    if (!isUuid(packId)) return false;
    if (!(await this.sql.affected(softDeletePack, { userId, packId }))) return false;
    await this.liveVersions.invalidate(userId, packId);
    return true;
  }

  /** A live pack's audit settings, or null when the pack does not exist for this user. */
  async findAuditSettings(userId: string, packId: string): Promise<AuditSettings | null> {
    if (!isUuid(packId)) return null;
    const row = await this.sql.first(findAuditSettings, { userId, packId });
    return row && { rate: row.auditRate, strategy: row.auditStrategy };
  }

  /**
   * Sets a live pack's audit settings (null when the pack does not exist for this user). The judge
   * reads them with the live version, so that cache entry is dropped in every process.
   */
  async updateAuditSettings(
    userId: string,
    packId: string,
    settings: AuditSettings,
  ): Promise<AuditSettings | null> {
    if (!isUuid(packId)) return null;
    const params = { userId, packId, auditRate: settings.rate, auditStrategy: settings.strategy };
    const row = await this.sql.first(updateAuditSettings, params);
    if (!row) return null;
    await this.liveVersions.invalidate(userId, packId);
    return { rate: row.auditRate, strategy: row.auditStrategy };
  }

  /** Versions newest first, numbered, or null when the pack does not exist for this user. */
  async listVersions(userId: string, packId: string): Promise<PackVersionRow[] | null> {
    if (!(await this.find(userId, packId))) return null;
    return this.sql.rows(listPackVersions, { userId, packId });
  }

  /** One version of a live pack of this user, numbered, with its document; null when not found. */
  async findVersion(
    userId: string,
    packId: string,
    versionId: string,
  ): Promise<(PackVersionRow & { document: PackDocument }) | null> {
    if (!isUuid(versionId) || !(await this.find(userId, packId))) return null;
    return this.sql.first(findPackVersion, { userId, packId, versionId });
  }

  /** The named versions of a live pack of this user (unknown or foreign ids are simply absent). */
  async findVersions(userId: string, packId: string, versionIds: string[]): Promise<PackVersionEntity[]> {
    const ids = versionIds.filter(isUuid);
    if (!ids.length || !(await this.find(userId, packId))) return [];
    return this.dataSource.getRepository(PackVersionEntity).findBy({ userId, packId, id: In(ids) });
  }
}
