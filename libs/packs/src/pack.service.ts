import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import {
  checkPackDocument,
  EMPTY_PACK_DOCUMENT,
  NotFoundError,
  planPublication,
  ValidationError,
  type AuditSettings,
  type PackDocument,
} from '@app/domain';
import { PackRepository, type PackRecord } from '@app/persistence';
import {
  toPackListItemView,
  toPackVersionView,
  toPackView,
  type PackListItemView,
  type PackVersionDocumentView,
  type PackVersionView,
  type PackView,
} from './pack.views.js';

export interface PackComparison {
  added: string[];
  removed: string[];
  changed: string[];
  /** Per changed question id: the paths (relative to the question) whose values differ. */
  changedPaths: Record<string, string[]>;
}

/** Checks a document; the issues' paths are relative to the document (`questions.2.id`). */
function validDocument(document: unknown): PackDocument {
  const check = checkPackDocument(document);
  if (!check.ok) throw new ValidationError(check.issues);
  return check.document;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The dotted paths at which two JSON values differ, down to the first value that is not an object or
 * array on both sides (`criteria.options.1.description`, `review.minSelectedProbability`); keys in
 * `to`'s order, then those only in `from`. An array's extra items are paths of their own.
 */
export function differingPaths(from: unknown, to: unknown, prefix = ''): string[] {
  const at = (key: string | number) => (prefix ? `${prefix}.${key}` : String(key));
  if (Array.isArray(from) && Array.isArray(to)) {
    const length = Math.max(from.length, to.length);
    return Array.from({ length }, (_, i) =>
      i < from.length && i < to.length ? differingPaths(from[i], to[i], at(i)) : [at(i)],
    ).flat();
  }
  if (isRecord(from) && isRecord(to)) {
    const keys = [...new Set([...Object.keys(to), ...Object.keys(from)])];
    return keys.flatMap((key) =>
      key in from && key in to ? differingPaths(from[key], to[key], at(key)) : [at(key)],
    );
  }
  return isDeepStrictEqual(from, to) ? [] : [prefix || '.'];
}

/** Question ids present only in `to` (added) or only in `from` (removed), and ids in both that differ. */
export function compareDocuments(from: PackDocument, to: PackDocument): PackComparison {
  const before = new Map(from.questions.map((question) => [question.id, question]));
  const after = new Map(to.questions.map((question) => [question.id, question]));
  const changed = [...after.keys()].filter(
    (id) => before.has(id) && !isDeepStrictEqual(before.get(id), after.get(id)),
  );
  return {
    added: [...after.keys()].filter((id) => !before.has(id)),
    removed: [...before.keys()].filter((id) => !after.has(id)),
    changed,
    changedPaths: Object.fromEntries(
      changed.map((id) => [id, differingPaths(before.get(id), after.get(id))]),
    ),
  };
}

@Injectable()
export class PackService {
  constructor(private readonly packs: PackRepository) {}

  async list(userId: string): Promise<PackListItemView[]> {
    return (await this.packs.list(userId)).map(toPackListItemView);
  }

  async get(userId: string, packId: string): Promise<PackView> {
    return toPackView(await this.find(userId, packId));
  }

  async create(userId: string, name: string, document?: unknown): Promise<PackView> {
    const valid = document === undefined ? EMPTY_PACK_DOCUMENT : validDocument(document);
    return toPackView(await this.packs.create(userId, name, valid));
  }

  async update(
    userId: string,
    packId: string,
    changes: { name?: string; document?: unknown },
  ): Promise<PackView> {
    const document = changes.document === undefined ? undefined : validDocument(changes.document);
    const pack = await this.packs.update(userId, packId, { name: changes.name, document });
    if (!pack) throw new NotFoundError('pack not found');
    return toPackView(pack);
  }

  /**
   * Publishing is the domain's `planPublication`, decided on the locked pack: the draft goes live and a
   * new draft opens; a draft that fails the current check (saved before a rule tightened) is refused.
   */
  async publish(userId: string, packId: string): Promise<PackView> {
    const pack = await this.packs.publish(userId, packId, (versions) => {
      const decision = planPublication(versions, randomUUID());
      if (!decision.publish) throw new ValidationError(decision.issues);
      return decision.publication;
    });
    if (!pack) throw new NotFoundError('pack not found');
    return toPackView(pack);
  }

  /**
   * Rollback: the version's document (any version of this pack, checked again, as a rule may have
   * tightened since it was saved) replaces the draft's, in place, as a PATCH would. The live version is
   * never touched; publishing the draft afterwards makes the restored document live again.
   */
  async restore(userId: string, packId: string, versionId: string): Promise<PackView> {
    await this.find(userId, packId);
    const [version] = await this.packs.findVersions(userId, packId, [versionId]);
    if (!version) throw new NotFoundError('version not found');
    const pack = await this.packs.update(userId, packId, { document: validDocument(version.document) });
    if (!pack) throw new NotFoundError('pack not found');
    return toPackView(pack);
  }

  async delete(userId: string, packId: string): Promise<void> {
    if (!(await this.packs.delete(userId, packId))) throw new NotFoundError('pack not found');
  }

  async export(userId: string, packId: string): Promise<{ name: string; document: PackDocument }> {
    const pack = await this.find(userId, packId);
    return { name: pack.name, document: pack.document };
  }

  async versions(userId: string, packId: string): Promise<PackVersionView[]> {
    const versions = await this.packs.listVersions(userId, packId);
    if (!versions) throw new NotFoundError('pack not found');
    return versions.map(toPackVersionView);
  }

  /** One version with its document: the draft, the live one or any earlier one. */
  async version(userId: string, packId: string, versionId: string): Promise<PackVersionDocumentView> {
    await this.find(userId, packId);
    const version = await this.packs.findVersion(userId, packId, versionId);
    if (!version) throw new NotFoundError('version not found');
    return { ...toPackVersionView(version), document: version.document };
  }

  async compare(userId: string, packId: string, fromId: string, toId: string): Promise<PackComparison> {
    await this.find(userId, packId);
    const versions = await this.packs.findVersions(userId, packId, [fromId, toId]);
    const from = versions.find((version) => version.id === fromId);
    const to = versions.find((version) => version.id === toId);
    if (!from || !to) throw new NotFoundError('version not found');
    return compareDocuments(from.document, to.document);
  }

  /** The pack's audit settings (docs/reviews.md, "Audit sampling"); the defaults until set. */
  async auditSettings(userId: string, packId: string): Promise<AuditSettings> {
    const settings = await this.packs.findAuditSettings(userId, packId);
    if (!settings) throw new NotFoundError('pack not found');
    return settings;
  }

  /** Replaces the audit settings; judgments stored from now on are drawn with them. */
  async setAuditSettings(userId: string, packId: string, settings: AuditSettings): Promise<AuditSettings> {
    const saved = await this.packs.updateAuditSettings(userId, packId, settings);
    if (!saved) throw new NotFoundError('pack not found');
    return saved;
  }

  private async find(userId: string, packId: string): Promise<PackRecord> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    return pack;
  }
}
