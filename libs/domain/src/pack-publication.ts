import { isDeepStrictEqual } from 'node:util';
import type { ValidationIssue } from './errors.js';
import { checkPackDocument, type PackDocument } from './pack-document.js';

/** The issue of a draft with no questions, refused on publish: judging it could only give `invalid_pack`. */
export const NO_QUESTIONS_ISSUE: ValidationIssue = {
  path: 'questions',
  message: 'a pack needs at least one question to be published',
};

/** A pack's versions as its publication finds them (with the pack row locked against other changes). */
export interface PackVersions {
  draftVersionId: string;
  liveVersionId: string | null;
  /** The draft's document as stored: checked again, as a rule may have tightened since it was saved. */
  draftDocument: unknown;
}

/**
 * What a publication writes, all in one transaction:
 * - `freezeVersionId`, the draft, is frozen: its `publishedAt` becomes the publication's time (the
 *   transaction's, by the database's clock, the same instant as the pack's `updatedAt`), and it never
 *   changes again. The version that was live keeps its own `publishedAt`: nothing is unpublished.
 * - The frozen draft becomes the live version (`liveVersionId`).
 * - A new draft (`newDraft.id`, which becomes `draftVersionId`) opens with a copy of the frozen draft's
 *   document, so editing goes on from what was just published.
 */
export interface PackPublication {
  freezeVersionId: string;
  newDraft: { id: string; copiedFrom: string };
  liveVersionId: string;
  draftVersionId: string;
}

export type PublicationDecision =
  { publish: true; publication: PackPublication } | { publish: false; issues: ValidationIssue[] };

/**
 * Publishing a pack: its draft becomes a version and goes live, and a new draft opens (`newDraftId`).
 * Refused, with the document's issues, when the draft fails the current document check, and with an
 * issue at `questions` when it has no question. Never a no-op: a draft equal to the live version is
 * published again, as a new version (the contract's behaviour; the web app does not offer it, see
 * `hasUnpublishedChanges`).
 */
export function planPublication(pack: PackVersions, newDraftId: string): PublicationDecision {
  const check = checkPackDocument(pack.draftDocument);
  if (!check.ok) return { publish: false, issues: check.issues };
  if (check.document.questions.length === 0) return { publish: false, issues: [NO_QUESTIONS_ISSUE] };
  if (newDraftId === pack.draftVersionId || newDraftId === pack.liveVersionId)
    throw new Error('a new draft needs a new version id');
  return {
    publish: true,
    publication: {
      freezeVersionId: pack.draftVersionId,
      newDraft: { id: newDraftId, copiedFrom: pack.draftVersionId },
      liveVersionId: pack.draftVersionId,
      draftVersionId: newDraftId,
    },
  };
}

/**
 * Whether the draft holds something the live version does not: with a live version, the documents
 * differ (deeply, key order ignored, arrays in order, unknown keys counted: as the pack list's
 * `jsonb` comparison); without one, the draft has a question.
 */
export function hasUnpublishedChanges(draft: PackDocument, live: PackDocument | null): boolean {
  if (live === null) return draft.questions.length > 0;
  return !isDeepStrictEqual(draft, live);
}
