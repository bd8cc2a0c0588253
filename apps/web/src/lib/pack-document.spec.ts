import { describe, expect, it } from '@jest/globals';
import { choiceOptions, documentForVersion, findQuestion } from './pack-document';
import { SAMPLE_DOCUMENT as document } from './pack-document.fixtures';

describe('documentForVersion', () => {
  it('finds the document of the draft and of the live version only', () => {
    const live = { questions: [] };
    const pack = { draftVersionId: 'c', liveVersionId: 'b', document, liveDocument: live };
    expect(documentForVersion(pack, 'c')).toBe(document);
    expect(documentForVersion(pack, 'b')).toBe(live);
    expect(documentForVersion(pack, 'a')).toBeUndefined();
    expect(documentForVersion({ ...pack, liveDocument: null }, 'b')).toBeUndefined();
  });
});

describe('questions', () => {
  it('finds a question by id', () => {
    expect(findQuestion(document, 'complexity')?.name).toBe('Complexity');
    expect(findQuestion(document, 'missing')).toBeUndefined();
    expect(findQuestion(undefined, 'complexity')).toBeUndefined();
  });

  it('lists the options of a choice question only', () => {
    expect(choiceOptions(document.questions[0]).map((option) => option.value)).toEqual([
      'billing',
      'technical',
      'legal',
    ]);
    expect(choiceOptions(document.questions[1])).toEqual([]);
  });
});
