import { describe, expect, it } from '@jest/globals';
import {
  changeQuestionType,
  describeCriteria,
  exportFileName,
  hasChanges,
  MINIMAL_DOCUMENT,
  newQuestion,
  nextQuestionId,
  parseDocumentJson,
  parseImport,
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
    expect(newQuestion('boolean', document).review).toEqual({ minSelectedProbability: 0.6 });
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
