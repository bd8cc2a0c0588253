import { describe, expect, it } from '@jest/globals';
import { draftErrors, draftFieldPath } from './draft-form';

describe('draftFieldPath', () => {
  it('puts document-relative paths, as the pack routes answer them, under the form’s document', () => {
    expect(draftFieldPath('questions.0.id')).toBe('document.questions.0.id');
    expect(draftFieldPath('questions.2.review.minSelectedProbability')).toBe(
      'document.questions.2.review.minSelectedProbability',
    );
    expect(draftFieldPath('questions')).toBe('document.questions');
  });

  it('reads array indices in dot and bracket notation alike', () => {
    const path = 'document.questions.0.criteria.options.1.value';
    expect(draftFieldPath('document.questions[0].criteria.options[1].value')).toBe(path);
    expect(draftFieldPath('document.questions.0.criteria.options.1.value')).toBe(path);
    expect(draftFieldPath('questions[0].criteria.options.1.value')).toBe(path);
  });

  it('keeps the pack name', () => {
    expect(draftFieldPath('name')).toBe('name');
  });

  it('names no field for the document as a whole, the body or a path outside the form', () => {
    expect(draftFieldPath('document')).toBeUndefined();
    expect(draftFieldPath('body')).toBeUndefined();
    expect(draftFieldPath('')).toBeUndefined();
    expect(draftFieldPath('questionsExtra')).toBeUndefined();
    expect(draftFieldPath('document.name')).toBeUndefined();
  });
});

describe('draftErrors', () => {
  it('sets field errors by form path and keeps issues that name no field for the whole form', () => {
    expect(
      draftErrors([
        { path: 'name', message: 'name must be shorter than or equal to 200 characters' },
        { path: 'questions.1.criteria.max', message: 'max must be greater than min' },
        { path: 'document.questions[0].criteria.options[1].value', message: 'Duplicate option value' },
        { path: 'document', message: 'Expected object, received string' },
      ]),
    ).toEqual({
      fields: {
        name: 'name must be shorter than or equal to 200 characters',
        'document.questions.1.criteria.max': 'max must be greater than min',
        'document.questions.0.criteria.options.1.value': 'Duplicate option value',
      },
      form: ['Expected object, received string'],
    });
  });

  it('shows the first issue at a path, as the server orders them', () => {
    const { fields } = draftErrors([
      { path: 'questions.0.id', message: 'first' },
      { path: 'document.questions[0].id', message: 'second' },
    ]);
    expect(fields).toEqual({ 'document.questions.0.id': 'first' });
  });

  it('is empty for no issues', () => {
    expect(draftErrors([])).toEqual({ fields: {}, form: [] });
  });
});
