import { describe, expect, it } from '@jest/globals';
import {
  answerCount,
  changeQuestionType,
  defaultThreshold,
  defaultThresholdText,
  describeCriteria,
  exportFileName,
  formatValue,
  hasChanges,
  MINIMAL_DOCUMENT,
  newQuestion,
  nextQuestionId,
  parseDocumentJson,
  parseImport,
  publishBlocker,
  thresholdPreviewText,
  valueAtPath,
  withKey,
} from './packs';
import { SAMPLE_DOCUMENT as document } from '../../lib/pack-document.fixtures';

describe('questions', () => {
  it('picks an unused id and a valid default per type', () => {
    expect(nextQuestionId(document)).toBe('question_3');
    expect(nextQuestionId(MINIMAL_DOCUMENT)).toBe('question_1');
    const choice = newQuestion('choice', document);
    expect(choice).toMatchObject({ type: 'choice', id: 'question_3', instructions: '' });
    expect((choice.criteria.options as unknown[]).length).toBe(2);
    expect(newQuestion('score', document).criteria).toEqual({ min: 1, max: 5 });
    expect(newQuestion('boolean', document).review).toEqual({ minSelectedProbability: 0.7 });
    expect(newQuestion('choice', document).review).toEqual({ minSelectedProbability: 0.7 });
    // 0.6 on a 1-5 score sent every ticket to review: a new score question starts at 0.4.
    expect(newQuestion('score', document).review).toEqual({ minSelectedProbability: 0.4 });
  });

  it('sets the default threshold from chance by type and number of answers', () => {
    const choice = (n: number) =>
      ({
        ...newQuestion('choice', MINIMAL_DOCUMENT),
        criteria: { options: Array.from({ length: n }, (_, i) => ({ value: `o${i}` })) },
      }) as ReturnType<typeof newQuestion>;
    const score = (min: number, max: number) =>
      ({ ...newQuestion('score', MINIMAL_DOCUMENT), criteria: { min, max } }) as ReturnType<
        typeof newQuestion
      >;
    expect([2, 3, 4, 5, 10].map((n) => defaultThreshold(choice(n)))).toEqual([0.7, 0.6, 0.55, 0.52, 0.46]);
    expect([score(1, 5), score(1, 3), score(0, 10)].map(defaultThreshold)).toEqual([0.4, 0.5, 0.32]);
    // Beyond 11 values, or not integers, a score has no probabilities: any threshold passes.
    expect(answerCount(score(0, 100))).toBeNull();
    expect(defaultThreshold(score(0, 100))).toBe(0);
    expect(defaultThreshold(score(0.5, 2.5))).toBe(0);
    // Every default stays above chance, so a model no better than chance goes to review.
    for (const n of [2, 3, 5, 8, 12]) expect(defaultThreshold(choice(n))).toBeGreaterThan(1 / n);
    expect(defaultThresholdText(score(1, 5))).toContain('0.4');
    expect(defaultThresholdText(score(0, 100))).toContain('any threshold passes');
  });

  it('keeps everything but criteria when the type changes', () => {
    const question = { ...document.questions[0], note: 'unknown key' };
    const changed = changeQuestionType(question, 'boolean');
    expect(changed).toMatchObject({ type: 'boolean', id: 'department', note: 'unknown key' });
    expect(changed.criteria).toEqual({ description: '' });
    expect(changeQuestionType(question, 'choice')).toBe(question);
  });

  it('drops a key set to empty and keeps the others', () => {
    expect(withKey({ a: 1, outcome: 'review' }, 'outcome', '')).toEqual({ a: 1 });
    expect(withKey({ a: 1 }, 'outcome', 'reject')).toEqual({ a: 1, outcome: 'reject' });
  });

  it('describes criteria in words', () => {
    expect(describeCriteria(document.questions[0])).toEqual([
      'Option billing: Invoices',
      'Option technical',
      'Option legal → review',
      'Derives department',
      'Review below 0.6',
    ]);
    expect(describeCriteria(document.questions[1])).toEqual(['Score from 1 to 5', 'Review below 0']);
  });
});

describe('raw JSON', () => {
  it('accepts an object with a questions array', () => {
    expect(parseDocumentJson('{"questions": [], "x": 1}')).toEqual({
      ok: true,
      document: { questions: [], x: 1 },
    });
  });

  it('explains what is wrong', () => {
    expect(parseDocumentJson('{').ok).toBe(false);
    expect(parseDocumentJson('[]')).toEqual({ ok: false, error: 'The document must be a JSON object.' });
    expect(parseDocumentJson('{}')).toEqual({ ok: false, error: 'The document needs a "questions" array.' });
    expect(parseDocumentJson('{"questions": [1]}')).toEqual({
      ok: false,
      error: 'questions[0] must be an object.',
    });
  });
});

describe('import', () => {
  it('reads an export and lets a typed name win', () => {
    const text = JSON.stringify({ name: 'Triage', document });
    expect(parseImport(text, '')).toEqual({ ok: true, body: { name: 'Triage', document } });
    expect(parseImport(text, ' Copy ')).toEqual({ ok: true, body: { name: 'Copy', document } });
  });

  it('takes a bare document when a name is typed', () => {
    expect(parseImport('{"questions": []}', 'New')).toEqual({
      ok: true,
      body: { name: 'New', document: { questions: [] } },
    });
    expect(parseImport('{"questions": []}', '').ok).toBe(false);
    expect(parseImport('', 'x').ok).toBe(false);
    expect(parseImport('nope', 'x').ok).toBe(false);
  });
});

describe('misc', () => {
  it('names export files', () => {
    expect(exportFileName('Support triage (EU)')).toBe('support-triage-eu.json');
    expect(exportFileName('***')).toBe('pack.json');
  });

  it('detects changes', () => {
    const saved = { name: 'A', document };
    expect(hasChanges(saved, { name: 'A', document: structuredClone(document) })).toBe(false);
    expect(hasChanges(saved, { name: 'B', document })).toBe(true);
    expect(hasChanges(saved, { name: 'A', document: MINIMAL_DOCUMENT })).toBe(true);
  });
});

describe('publishing and the threshold preview', () => {
  it('offers Publish only for a saved draft with questions that differs from the live version', () => {
    expect(publishBlocker({ document, unpublishedChanges: true })).toBeUndefined();
    expect(publishBlocker({ document, unpublishedChanges: false })).toMatch(/same as the live version/);
    expect(publishBlocker({ document: MINIMAL_DOCUMENT, unpublishedChanges: false })).toMatch(
      /Add a question/,
    );
  });

  it('says what share of the last days would have gone to review', () => {
    const percent = (value: number | null) => `${Math.round((value ?? 0) * 100)}%`;
    expect(
      thresholdPreviewText(
        { threshold: 0.6, days: 30, evaluated: 5, belowThreshold: 5, reviewShare: 1 },
        percent,
      ),
    ).toBe(
      'At 0.6, this question would have sent 100% of the last 30 days to review (5 of 5 live evaluations).',
    );
    expect(
      thresholdPreviewText(
        { threshold: 0.6, days: 30, evaluated: 0, belowThreshold: 0, reviewShare: null },
        percent,
      ),
    ).toMatch(/^No live evaluation answered this question/);
  });
});

describe('changed values', () => {
  it('reads the value at a changed path and formats it', () => {
    const question = document.questions[0];
    expect(valueAtPath(question, 'review.minSelectedProbability')).toBe(
      question.review.minSelectedProbability,
    );
    expect(
      valueAtPath({ criteria: { options: [{ value: 'a' }, { value: 'b' }] } }, 'criteria.options.1.value'),
    ).toBe('b');
    expect(valueAtPath({ a: 1 }, 'a.b.c')).toBeUndefined();
    expect(valueAtPath({ a: 1 }, '.')).toEqual({ a: 1 });
    expect([
      formatValue(undefined),
      formatValue(''),
      formatValue('x'),
      formatValue(0.6),
      formatValue({ v: 1 }),
    ]).toEqual(['—', '(empty)', 'x', '0.6', '{"v":1}']);
  });
});
