import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import type { Answer } from './judgment.js';
import { judgeLexically, LEXICAL_MODEL_ID } from './lexical-model.js';
import { checkPackDocument, type PackDocument } from './pack-document.js';
import type { Ticket } from './ticket.js';

function loadExamplePack(): PackDocument {
  const pack = JSON.parse(readFileSync('examples/packs/support-triage.json', 'utf8')) as {
    document: unknown;
  };
  const check = checkPackDocument(pack.document);
  if (!check.ok) throw new Error(`example pack is invalid: ${JSON.stringify(check.issues)}`);
  return check.document;
}

const pack = loadExamplePack();
const billing: Ticket = {
  subject: 'Double charge',
  customerMessage: 'I was charged twice for my subscription, please refund the duplicate payment',
};
const technical: Ticket = {
  subject: 'Cannot use the app',
  customerMessage: 'the app crashes with an error when I log in',
};
const unrelated: Ticket = {
  subject: 'Hi',
  customerMessage: 'My cat likes to sleep on the sofa all afternoon',
};
const unicode: Ticket = {
  subject: 'Rückerstattung 💳',
  customerMessage: 'Ich wurde zweimal belastet — 払い戻しをお願いします. Naïve café, हिंदी पाठ, Ελληνικά, 123',
  messages: [{ role: 'agent', text: '¿Podría enviarnos el número de pedido? 🙏' }],
};

function choice(answer: Answer): { choice: string; probabilities: Record<string, number> } {
  if (answer.type !== 'choice' || !answer.probabilities)
    throw new Error(`not a choice: ${JSON.stringify(answer)}`);
  return { choice: answer.choice, probabilities: answer.probabilities };
}

function probability(answer: Answer): number {
  if (answer.type !== 'boolean') throw new Error(`not a boolean: ${JSON.stringify(answer)}`);
  return answer.probability;
}

function sum(probabilities: Record<string, number>): number {
  return Object.values(probabilities).reduce((total, value) => total + value, 0);
}

/** Checks every answer against its question's type and ranges. */
function expectWellFormed(document: PackDocument, ticket: Ticket): void {
  const { answers, usage } = judgeLexically(document, ticket);
  expect(Object.keys(answers).sort()).toEqual(document.questions.map((question) => question.id).sort());
  expect(usage.outputTokens).toBe(document.questions.length);
  expect(Number.isInteger(usage.inputTokens) && usage.inputTokens >= 0).toBe(true);
  for (const question of document.questions) {
    const answer = answers[question.id];
    expect(answer.type).toBe(question.type);
    if (question.type === 'choice' && answer.type === 'choice') {
      const values = question.criteria.options.map((option) => option.value);
      expect(values).toContain(answer.choice);
      expect(Object.keys(answer.probabilities ?? {})).toEqual(values);
      for (const value of Object.values(answer.probabilities ?? {})) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      expect(sum(answer.probabilities ?? {})).toBeCloseTo(1, 6);
      expect(Math.max(...Object.values(answer.probabilities ?? {}))).toBe(
        answer.probabilities?.[answer.choice],
      );
    } else if (question.type === 'boolean' && answer.type === 'boolean') {
      expect(answer.probability).toBeGreaterThanOrEqual(0);
      expect(answer.probability).toBeLessThanOrEqual(1);
    } else if (question.type === 'score' && answer.type === 'score') {
      const { min, max } = question.criteria;
      expect(answer.score).toBeGreaterThanOrEqual(min);
      expect(answer.score).toBeLessThanOrEqual(max);
      if (Number.isInteger(min) && Number.isInteger(max)) expect(Number.isInteger(answer.score)).toBe(true);
      if (answer.probabilities) {
        expect(Object.keys(answer.probabilities)).toEqual(
          Array.from({ length: max - min + 1 }, (_, index) => String(min + index)),
        );
        expect(sum(answer.probabilities)).toBeCloseTo(1, 6);
      }
    } else {
      throw new Error(`answer type ${answer.type} for a ${question.type} question`);
    }
  }
}

describe('judgeLexically', () => {
  it('has a stable model id', () => {
    expect(LEXICAL_MODEL_ID).toBe('local-lexical-1');
  });

  it('is deterministic', () => {
    for (const ticket of [billing, technical, unrelated, unicode]) {
      expect(judgeLexically(pack, ticket)).toEqual(judgeLexically(pack, structuredClone(ticket)));
    }
  });

  it('answers every question of the example pack with the right shape and ranges', () => {
    for (const ticket of [billing, technical, unrelated, unicode]) expectWellFormed(pack, ticket);
    const department = choice(judgeLexically(pack, billing).answers.department);
    expect(Object.keys(department.probabilities)).toEqual([
      'billing',
      'technical',
      'account',
      'shipping',
      'other',
    ]);
  });

  it('sends a double charge to billing, clearly ahead of the other departments', () => {
    const { choice: picked, probabilities } = choice(judgeLexically(pack, billing).answers.department);
    expect(picked).toBe('billing');
    expect(probabilities.billing).toBeGreaterThan(0.7);
    for (const [value, p] of Object.entries(probabilities)) {
      if (value !== 'billing') expect(p * 5).toBeLessThan(probabilities.billing);
    }
  });

  it('sends a crash at login to technical', () => {
    const { choice: picked, probabilities } = choice(judgeLexically(pack, technical).answers.department);
    expect(picked).toBe('technical');
    expect(probabilities.technical).toBeGreaterThan(0.7);
  });

  it('stays near uniform for an unrelated ticket, breaking the tie by option order', () => {
    const { choice: picked, probabilities } = choice(judgeLexically(pack, unrelated).answers.department);
    expect(picked).toBe('billing');
    for (const p of Object.values(probabilities)) expect(p).toBeCloseTo(0.2, 2);
    const minSelected = pack.questions[0].review.minSelectedProbability;
    expect(probabilities[picked]).toBeLessThan(minSelected);
  });

  it('answers yes/no questions from the words of the question', () => {
    const billingAnswers = judgeLexically(pack, billing).answers;
    expect(probability(billingAnswers.abusive_language)).toBeLessThan(0.3);
    expect(probability(billingAnswers.refund_request)).toBeGreaterThan(0.7);
    expect(probability(judgeLexically(pack, technical).answers.refund_request)).toBeLessThan(0.3);
    const abusive: Ticket = {
      subject: 'Useless',
      customerMessage: 'I will keep sending insults and threats to your support team until someone answers',
    };
    expect(probability(judgeLexically(pack, abusive).answers.abusive_language)).toBeGreaterThan(0.7);
  });

  it('ignores sentences that describe what does not count', () => {
    // "strong words about the product alone are not abuse" must not count as evidence of abuse.
    const complaint: Ticket = {
      subject: 'Frustration',
      customerMessage: 'Strong words: this product is a complaint.',
    };
    expect(probability(judgeLexically(pack, complaint).answers.abusive_language)).toBeLessThan(0.3);
  });

  it('keeps scores within bounds, with or without a listed distribution', () => {
    const score = judgeLexically(pack, billing).answers.resolution_complexity;
    expect(score.type).toBe('score');
    const document: PackDocument = {
      questions: [
        { type: 'score', id: 'wide', name: 'Wide', instructions: '', criteria: { min: 0, max: 100 }, review },
        {
          type: 'score',
          id: 'levels',
          name: 'Levels',
          instructions: '',
          criteria: {
            min: -50,
            max: 50,
            description: '-50: angry, wants a refund. 0: neutral. 50: happy, says thanks',
          },
          review,
        },
        {
          type: 'score',
          id: 'fraction',
          name: 'Fraction',
          instructions: '',
          criteria: { min: 0, max: 1 },
          review,
        },
        {
          type: 'score',
          id: 'real',
          name: 'Real',
          instructions: '',
          criteria: { min: 0.5, max: 2.5 },
          review,
        },
      ],
    };
    for (const ticket of [billing, technical, unicode]) expectWellFormed(document, ticket);
    const { answers } = judgeLexically(document, billing);
    expect(answers.wide).not.toHaveProperty('probabilities');
    expect(answers.fraction).toHaveProperty('probabilities');
    expect(answers.real).not.toHaveProperty('probabilities');
    expect(answers.levels.type === 'score' && answers.levels.score).toBeLessThan(0);
  });

  it('handles Unicode text, empty messages and an empty pack', () => {
    expect(() => judgeLexically(pack, unicode)).not.toThrow();
    expect(judgeLexically(pack, unicode).usage.inputTokens).toBeGreaterThan(10);
    expect(judgeLexically(pack, { ...billing, messages: [] })).toEqual(judgeLexically(pack, billing));
    expectWellFormed(pack, { subject: '', customerMessage: '', messages: [] });
    expect(judgeLexically({ questions: [] }, billing)).toEqual({
      answers: {},
      usage: { inputTokens: 14, outputTokens: 0 },
    });
  });

  it('reads the whole thread and counts its words as input tokens', () => {
    const thread: Ticket = {
      subject: 'Question',
      customerMessage: 'Hello there',
      messages: [{ role: 'customer', text: 'I was charged twice, I need a refund of the payment' }],
    };
    expect(choice(judgeLexically(pack, thread).answers.department).choice).toBe('billing');
    expect(judgeLexically(pack, thread).usage.inputTokens).toBe(14);
  });
});

const review = { minSelectedProbability: 0.5 };
