import { describe, expect, it } from '@jest/globals';
import type { PackDocument } from './pack-document.js';
import { hasUnpublishedChanges, NO_QUESTIONS_ISSUE, planPublication } from './pack-publication.js';

const DRAFT = 'draft-1';
const LIVE = 'live-0';
const NEW = 'draft-2';

const document: PackDocument = {
  questions: [
    {
      type: 'boolean',
      id: 'refund',
      name: 'Refund',
      instructions: 'Asks for money back?',
      criteria: { description: 'refund' },
      review: { minSelectedProbability: 0.5 },
    },
  ],
};

describe('planPublication', () => {
  it('freezes the draft, makes it live and opens a new draft copied from it', () => {
    expect(
      planPublication({ draftVersionId: DRAFT, liveVersionId: LIVE, draftDocument: document }, NEW),
    ).toEqual({
      publish: true,
      publication: {
        freezeVersionId: DRAFT,
        newDraft: { id: NEW, copiedFrom: DRAFT },
        liveVersionId: DRAFT,
        draftVersionId: NEW,
      },
    });
  });

  it('publishes a pack never published before', () => {
    const first = planPublication(
      { draftVersionId: DRAFT, liveVersionId: null, draftDocument: document },
      NEW,
    );
    expect(first).toMatchObject({
      publish: true,
      publication: { liveVersionId: DRAFT, draftVersionId: NEW },
    });
  });

  it('refuses a draft with no questions, with an issue at questions', () => {
    for (const liveVersionId of [null, LIVE]) {
      const empty = planPublication(
        { draftVersionId: DRAFT, liveVersionId, draftDocument: { questions: [] } },
        NEW,
      );
      expect(empty).toEqual({ publish: false, issues: [NO_QUESTIONS_ISSUE] });
    }
    expect(NO_QUESTIONS_ISSUE.path).toBe('questions');
  });

  it('is never a no-op: a draft equal to the live version is published again as a new version', () => {
    // The draft's document is not compared with the live one: publishing always moves the versions on.
    const again = planPublication(
      { draftVersionId: DRAFT, liveVersionId: LIVE, draftDocument: document },
      NEW,
    );
    expect(again.publish).toBe(true);
  });

  it('never touches the version that was live: it keeps its publishedAt and is not frozen again', () => {
    const plan = planPublication(
      { draftVersionId: DRAFT, liveVersionId: LIVE, draftDocument: document },
      NEW,
    );
    expect(JSON.stringify(plan)).not.toContain(LIVE);
  });

  it('refuses a draft that fails the current document check, with its issues', () => {
    const stale = { questions: [{ type: 'choice' }] };
    const refused = planPublication(
      { draftVersionId: DRAFT, liveVersionId: LIVE, draftDocument: stale },
      NEW,
    );
    expect(refused.publish).toBe(false);
    if (refused.publish) return;
    expect(refused.issues.length).toBeGreaterThan(0);
    expect(refused.issues.map((issue) => issue.path)).toContain('questions.0.id');
  });

  it('refuses to reuse a version id for the new draft', () => {
    expect(() =>
      planPublication({ draftVersionId: DRAFT, liveVersionId: LIVE, draftDocument: document }, DRAFT),
    ).toThrow(/new version id/);
    expect(() =>
      planPublication({ draftVersionId: DRAFT, liveVersionId: LIVE, draftDocument: document }, LIVE),
    ).toThrow(/new version id/);
  });
});

describe('hasUnpublishedChanges', () => {
  it('without a live version: true once the draft has a question', () => {
    expect(hasUnpublishedChanges({ questions: [] }, null)).toBe(false);
    expect(hasUnpublishedChanges(document, null)).toBe(true);
  });

  it('compares canonically: key order ignored, values, unknown keys and array order counted', () => {
    const [question] = document.questions;
    const reordered = Object.fromEntries(Object.entries(question).reverse()) as typeof question;
    expect(hasUnpublishedChanges({ questions: [reordered] }, document)).toBe(false);
    expect(hasUnpublishedChanges(JSON.parse(JSON.stringify(document)), document)).toBe(false);
    const changed = { questions: [{ ...question, review: { minSelectedProbability: 0.7 } }] };
    expect(hasUnpublishedChanges(changed, document)).toBe(true);
    expect(hasUnpublishedChanges({ ...document, extra: 1 }, document)).toBe(true);
    const two = { questions: [question, { ...question, id: 'other' }] };
    expect(hasUnpublishedChanges({ questions: [...two.questions].reverse() }, two)).toBe(true);
  });
});
