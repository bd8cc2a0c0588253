import { hasUnpublishedChanges, type PackDocument } from '@app/domain';
import type { PackListRow, PackRecord, PackVersionRow } from '@app/persistence';

export interface PackView {
  id: string;
  name: string;
  liveVersionId: string | null;
  draftVersionId: string;
  document: PackDocument;
  liveDocument: PackDocument | null;
  /** The draft differs from the live version (or, unpublished, has a question): as in the pack list. */
  unpublishedChanges: boolean;
  updatedAt: string;
}

export interface PackListItemView {
  id: string;
  name: string;
  liveVersionId: string | null;
  updatedAt: string;
  questionCount: number;
  unpublishedChanges: boolean;
  liveVersionNumber: number | null;
}

export interface PackVersionView {
  id: string;
  createdAt: string;
  publishedAt: string | null;
  /** Publication order within the pack, from 1; null for the draft. */
  number: number | null;
}

export interface PackVersionDocumentView extends PackVersionView {
  document: PackDocument;
}

export function toPackView(pack: PackRecord): PackView {
  return {
    id: pack.id,
    name: pack.name,
    liveVersionId: pack.liveVersionId,
    draftVersionId: pack.draftVersionId,
    document: pack.document,
    liveDocument: pack.liveDocument,
    unpublishedChanges: hasUnpublishedChanges(pack.document, pack.liveDocument),
    updatedAt: pack.updatedAt.toISOString(),
  };
}

export function toPackListItemView(row: PackListRow): PackListItemView {
  return { ...row, updatedAt: row.updatedAt.toISOString() };
}

export function toPackVersionView(row: PackVersionRow): PackVersionView {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    publishedAt: row.publishedAt?.toISOString() ?? null,
    number: row.number,
  };
}
