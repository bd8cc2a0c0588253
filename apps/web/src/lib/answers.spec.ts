import { describe, expect, it } from '@jest/globals';
import { answerText, reasonText } from './answers';

describe('answerText', () => {
  it('says what an answer is, with the score question’s maximum', () => {
    expect(answerText({ type: 'boolean', probability: 0.5 })).toBe('True');
    expect(answerText({ type: 'boolean', probability: 0.2 })).toBe('False');
    expect(answerText({ type: 'choice', choice: 'legal' })).toBe('legal');
    const score = {
      type: 'score' as const,
      id: 'urgency',
      name: 'Urgency',
      instructions: 'How urgent?',
      criteria: { min: 1, max: 5 },
      review: {},
    };
    expect(answerText({ type: 'score', score: 3 }, score as never)).toBe('3 of 5');
    expect(answerText({ type: 'score', score: 3 })).toBe('3');
    expect(answerText(undefined)).toBe('No answer');
  });
});

describe('reasonText', () => {
  it('names the question and words the failures from one table', () => {
    const names = new Map([['department', 'Department']]);
    expect(reasonText('low_confidence:department', names)).toBe('Low confidence on “Department”');
    expect(reasonText('outcome_review:legal')).toBe('“legal” asks for review');
    expect(reasonText('gateway_unavailable')).toBe('The model gateway was unavailable');
    expect(reasonText('invalid_ticket')).toBe('The ticket is blank or too long');
    expect(reasonText('something_new')).toBe('something_new');
  });
});
