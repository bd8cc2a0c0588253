import { describe, expect, it } from '@jest/globals';
import {
  expectedAgreement,
  expectedAgrees,
  expectedAnswersSchema,
  type ExpectedTicket,
} from './expected-answers.js';
import type { Answer } from './judgment.js';

const choice = (value: string): Answer => ({ type: 'choice', choice: value });
const yes = (probability: number): Answer => ({ type: 'boolean', probability });
const score = (value: number): Answer => ({ type: 'score', score: value });

describe('expectedAgrees', () => {
  it('compares a choice by its value, trimmed', () => {
    expect(expectedAgrees(choice('billing'), 'billing')).toBe(true);
    expect(expectedAgrees(choice('billing'), ' billing ')).toBe(true);
    expect(expectedAgrees(choice('billing'), 'Billing')).toBe(false);
    expect(expectedAgrees(choice('3'), 3)).toBe(true);
  });

  it('compares a boolean by its side, from booleans, true/false, yes/no and 1/0', () => {
    expect(expectedAgrees(yes(0.9), true)).toBe(true);
    expect(expectedAgrees(yes(0.5), 'TRUE')).toBe(true);
    expect(expectedAgrees(yes(0.2), 'no')).toBe(true);
    expect(expectedAgrees(yes(0.2), 0)).toBe(true);
    expect(expectedAgrees(yes(0.2), true)).toBe(false);
    expect(expectedAgrees(yes(0.9), 'maybe')).toBe(false);
    expect(expectedAgrees(yes(0.9), 2)).toBe(false);
  });

  it('compares a score as a number, also from text', () => {
    expect(expectedAgrees(score(3), 3)).toBe(true);
    expect(expectedAgrees(score(3), '3')).toBe(true);
    expect(expectedAgrees(score(3), ' 3.0 ')).toBe(true);
    expect(expectedAgrees(score(3), '4')).toBe(false);
    expect(expectedAgrees(score(0), ' ')).toBe(false);
    expect(expectedAgrees(score(1), true)).toBe(false);
  });

  it('never agrees without an answer', () => {
    expect(expectedAgrees(undefined, 'billing')).toBe(false);
  });
});

describe('expectedAgreement', () => {
  const ticket = (
    position: number,
    expected: ExpectedTicket['expected'],
    answers: ExpectedTicket['answers'],
  ) => ({
    ticketId: `t${position}`,
    position,
    externalId: position % 2 ? `Z-${position}` : null,
    subject: `Subject ${position}`,
    evaluationId: `e${position}`,
    expected,
    answers,
  });

  it('counts per question of the version, in its order, and lists the disagreements by position', () => {
    // dept: 3 compared (t0 agrees, t1 and t2 do not) -> 1/3; refund: 2 compared, both agree -> 1;
    // score: none compared -> null. `other` is not a question of the version: not counted.
    const report = expectedAgreement(
      ['dept', 'refund', 'score'],
      [
        ticket(2, { dept: 'tech' }, {}),
        ticket(
          0,
          { dept: 'billing', refund: true, other: 'x' },
          { dept: choice('billing'), refund: yes(0.8) },
        ),
        ticket(1, { dept: 'billing', refund: 'no' }, { dept: choice('tech'), refund: yes(0.1) }),
      ],
    );
    expect(report.questions).toEqual([
      { questionId: 'dept', compared: 3, agreed: 1, rate: 1 / 3 },
      { questionId: 'refund', compared: 2, agreed: 2, rate: 1 },
      { questionId: 'score', compared: 0, agreed: 0, rate: null },
    ]);
    expect(report.disagreements).toEqual([
      {
        ticketId: 't1',
        position: 1,
        externalId: 'Z-1',
        subject: 'Subject 1',
        evaluationId: 'e1',
        questionId: 'dept',
        expected: 'billing',
        answer: 'tech',
      },
      {
        ticketId: 't2',
        position: 2,
        externalId: null,
        subject: 'Subject 2',
        evaluationId: 'e2',
        questionId: 'dept',
        expected: 'tech',
        answer: null,
      },
    ]);
  });
});

describe('expectedAnswersSchema', () => {
  it('takes question ids with a choice, a boolean or a score', () => {
    expect(expectedAnswersSchema.safeParse({ dept: 'billing', refund: false, 'q_2-x': 4.5 }).success).toBe(
      true,
    );
  });

  it("refuses bad ids and empty or nested values (the entry cap is the JSON schema's maxProperties)", () => {
    for (const bad of [
      { 'not an id': 'x' },
      { dept: '' },
      { dept: { choice: 'billing' } },
      { dept: ['billing'] },
      { dept: null },
      { ['x'.repeat(65)]: 'x' },
      { dept: 'x'.repeat(1001) },
    ]) {
      expect(expectedAnswersSchema.safeParse(bad).success).toBe(false);
    }
  });
});
