import type { AuditStrategy, PackDocument } from '@app/domain';
import { defineStatement } from './statement.js';

interface OwnedPack {
  userId: string;
  packId: string;
}

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
  /** The live version's number (publication order); null without one. */
  liveVersionNumber: number | null;
}

/** A live pack with its draft document and, when published, its live document. */
export const findPack = defineStatement<OwnedPack, PackRecord>({
  name: 'packs.find',
  sql: `
    SELECT p.id, p.name, p.draft_version_id AS "draftVersionId", p.live_version_id AS "liveVersionId",
           p.updated_at AS "updatedAt", d.document, l.document AS "liveDocument"
      FROM packs p
      JOIN pack_versions d ON d.id = p.draft_version_id
      LEFT JOIN pack_versions l ON l.id = p.live_version_id
     WHERE p.user_id = :userId AND p.id = :packId AND p.deleted_at IS NULL`,
});

/**
 * The user's live packs, newest first. jsonb equality ignores key order, so `unpublishedChanges` is
 * a deep comparison done by Postgres; without a live version it is true once the draft has questions.
 */
export const listPacks = defineStatement<{ userId: string }, PackListRow>({
  name: 'packs.list',
  sql: `
    SELECT p.id, p.name, p.live_version_id AS "liveVersionId", p.updated_at AS "updatedAt",
           jsonb_array_length(d.document -> 'questions') AS "questionCount",
           CASE WHEN l.id IS NULL THEN jsonb_array_length(d.document -> 'questions') > 0
                ELSE d.document <> l.document END AS "unpublishedChanges",
           ${versionNumberSql('l')} AS "liveVersionNumber"
      FROM packs p
      JOIN pack_versions d ON d.id = p.draft_version_id
      LEFT JOIN pack_versions l ON l.id = p.live_version_id
     WHERE p.user_id = :userId AND p.deleted_at IS NULL
     ORDER BY p.updated_at DESC, p.id DESC`,
});

/** Locks a live pack for a change to its versions (run in the change's transaction). */
export const lockPack = defineStatement<OwnedPack, { draftVersionId: string }>({
  name: 'packs.lock',
  sql: `
    SELECT draft_version_id AS "draftVersionId" FROM packs
     WHERE user_id = :userId AND id = :packId AND deleted_at IS NULL FOR UPDATE`,
});

/** Locks a live pack for its publication (run in its transaction): its versions and the draft's document. */
export const lockForPublication = defineStatement<
  OwnedPack,
  { draftVersionId: string; liveVersionId: string | null; draftDocument: unknown }
>({
  name: 'packs.lockForPublication',
  sql: `
    SELECT p.draft_version_id AS "draftVersionId", p.live_version_id AS "liveVersionId",
           d.document AS "draftDocument"
      FROM packs p JOIN pack_versions d ON d.id = p.draft_version_id
     WHERE p.user_id = :userId AND p.id = :packId AND p.deleted_at IS NULL
       FOR UPDATE OF p`,
});

/** A new version holding the document of another (copied inside Postgres): a publication's new draft. */
export const copyVersion = defineStatement<{ newVersionId: string; fromVersionId: string }>({
  name: 'packs.copyVersion',
  sql: `
    INSERT INTO pack_versions (id, pack_id, user_id, document)
    SELECT :newVersionId, pack_id, user_id, document FROM pack_versions WHERE id = :fromVersionId`,
});

/**
 * The hot path of judging (behind LiveVersionCache): the live version's id and document, and the
 * pack's audit settings, which the judge draws with (read here so the audit adds no lookup).
 */
export const findLiveVersion = defineStatement<
  OwnedPack,
  { liveVersionId: string | null; document: PackDocument | null } & AuditSettingsRow
>({
  name: 'packs.findLiveVersion',
  sql: `
    SELECT p.live_version_id AS "liveVersionId", l.document,
           p.audit_rate AS "auditRate", p.audit_strategy AS "auditStrategy"
      FROM packs p LEFT JOIN pack_versions l ON l.id = p.live_version_id
     WHERE p.user_id = :userId AND p.id = :packId AND p.deleted_at IS NULL`,
});

export interface AuditSettingsRow {
  auditRate: number;
  auditStrategy: AuditStrategy;
}

/** A live pack's audit settings (GET /api/packs/{packId}/audit). */
export const findAuditSettings = defineStatement<OwnedPack, AuditSettingsRow>({
  name: 'packs.findAuditSettings',
  sql: `
    SELECT audit_rate AS "auditRate", audit_strategy AS "auditStrategy"
      FROM packs
     WHERE user_id = :userId AND id = :packId AND deleted_at IS NULL`,
});

/** Sets a live pack's audit settings; no row back when the pack does not exist for this user. */
export const updateAuditSettings = defineStatement<OwnedPack & AuditSettingsRow, AuditSettingsRow>({
  name: 'packs.updateAuditSettings',
  sql: `
    UPDATE packs SET audit_rate = :auditRate, audit_strategy = :auditStrategy
     WHERE user_id = :userId AND id = :packId AND deleted_at IS NULL
    RETURNING audit_rate AS "auditRate", audit_strategy AS "auditStrategy"`,
});

/** Edits the draft document (published versions never change). */
export const updateDraftDocument = defineStatement<{ versionId: string; document: PackDocument }>({
  name: 'packs.updateDraftDocument',
  sql: `UPDATE pack_versions SET document = :document WHERE id = :versionId AND published_at IS NULL`,
});

/** A pack's first draft (TypeORM's partial-entity types cannot take a document's open shape). */
export const insertVersion = defineStatement<{
  id: string;
  packId: string;
  userId: string;
  document: PackDocument;
}>({
  name: 'packs.insertVersion',
  sql: `INSERT INTO pack_versions (id, pack_id, user_id, document) VALUES (:id, :packId, :userId, :document)`,
});

/** A new pack row; its first draft (`insertVersion`) goes in the same transaction. */
export const insertPack = defineStatement<{
  id: string;
  userId: string;
  name: string;
  draftVersionId: string;
}>({
  name: 'packs.insert',
  sql: `INSERT INTO packs (id, user_id, name, draft_version_id) VALUES (:id, :userId, :name, :draftVersionId)`,
});

/** Marks the pack changed now, renaming it when a name is given. */
export const touchPack = defineStatement<{ packId: string; name: string | null }>({
  name: 'packs.touch',
  sql: `UPDATE packs SET name = COALESCE(:name, name), updated_at = now() WHERE id = :packId`,
});

/** Freezes a version: published versions never change again. */
export const freezeVersion = defineStatement<{ versionId: string }>({
  name: 'packs.freezeVersion',
  sql: `UPDATE pack_versions SET published_at = now() WHERE id = :versionId`,
});

interface PackVersionIds {
  packId: string;
  liveVersionId: string;
  draftVersionId: string;
}

/** Sets which versions are live and draft (as the domain's `planPublication` says), changed now. */
export const setVersions = defineStatement<PackVersionIds>({
  name: 'packs.setVersions',
  sql: `
    UPDATE packs SET live_version_id = :liveVersionId, draft_version_id = :draftVersionId, updated_at = now()
     WHERE id = :packId`,
});

/** Soft delete: the pack disappears, its versions stay for the evaluations that refer to them. */
export const softDeletePack = defineStatement<OwnedPack, { id: string }>({
  name: 'packs.softDelete',
  sql: `UPDATE packs SET deleted_at = now() WHERE user_id = :userId AND id = :packId AND deleted_at IS NULL RETURNING id`,
});

/**
 * A version's number (the SQL of alias `v`): its place in the order its pack's versions were
 * published, from 1; null for a version never published (the draft). Computed, not stored: a
 * publication only sets `published_at`, and the order of those times is the order of publication
 * (a pack's publications are serialised by its row lock; created_at and id only break exact ties).
 */
export function versionNumberSql(v: string): string {
  return `CASE WHEN ${v}.published_at IS NULL THEN NULL ELSE (
           SELECT count(*)::int FROM pack_versions o
            WHERE o.pack_id = ${v}.pack_id AND o.published_at IS NOT NULL
              AND (o.published_at, o.created_at, o.id) <= (${v}.published_at, ${v}.created_at, ${v}.id)) END`;
}

export interface PackVersionRow {
  id: string;
  createdAt: Date;
  publishedAt: Date | null;
  /** 1 for the first version published; null for the draft. */
  number: number | null;
}

/** A pack's versions, newest first, numbered in publication order; drafts frozen for shadow runs left out. */
export const listPackVersions = defineStatement<OwnedPack, PackVersionRow>({
  name: 'packs.listVersions',
  sql: `
    SELECT v.id, v.created_at AS "createdAt", v.published_at AS "publishedAt",
           ${versionNumberSql('v')} AS number
      FROM pack_versions v
     WHERE v.user_id = :userId AND v.pack_id = :packId AND (v.frozen_at IS NULL OR v.published_at IS NOT NULL)
     ORDER BY v.created_at DESC, v.id DESC`,
});

/** One version of a pack with its document and number. */
export const findPackVersion = defineStatement<
  OwnedPack & { versionId: string },
  PackVersionRow & { document: PackDocument }
>({
  name: 'packs.findVersion',
  sql: `
    SELECT v.id, v.created_at AS "createdAt", v.published_at AS "publishedAt", v.document,
           ${versionNumberSql('v')} AS number
      FROM pack_versions v
     WHERE v.user_id = :userId AND v.pack_id = :packId AND v.id = :versionId`,
});
