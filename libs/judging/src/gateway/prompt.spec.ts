import { describe, expect, it } from '@jest/globals';
import { buildResponseSchema, checkPackDocument, type PackDocument, type Ticket } from '@app/domain';
import { buildUserPrompt, responseSchemaOf } from './prompt.js';

const raw = {
  questions: [
    {
      type: 'choice',
      id: 'intent',
      name: 'Intent',
      instructions: 'What does the customer want?',
      criteria: { options: [{ value: 'refund' }, { value: 'other', description: 'anything else' }] },
      review: { minSelectedProbability: 0.6 },
    },
    {
      type: 'boolean',
      id: 'angry',
      name: 'Angry',
      instructions: 'Is the customer angry?',
      criteria: {},
      review: { minSelectedProbability: 0.5 },
    },
  ],
};
const parse = (input: unknown): PackDocument => {
  const check = checkPackDocument(input);
  if (!check.ok) throw new Error('the test document does not validate');
  return check.document;
};
const document = parse(raw);
const TICKET: Ticket = {
  subject: 'Charged twice',
  customerMessage: 'Please refund "one" payment.\nThanks',
  metadata: { plan: 'pro', seats: 3 },
};

describe('the prompt and schema of a call', () => {
  it('sends the questions (without review settings) and the ticket as one JSON object', () => {
    const prompt = buildUserPrompt(document, TICKET);
    expect(JSON.parse(prompt)).toEqual({
      questions: [
        {
          id: 'intent',
          type: 'choice',
          name: 'Intent',
          instructions: 'What does the customer want?',
          criteria: { options: [{ value: 'refund' }, { value: 'other', description: 'anything else' }] },
        },
        { id: 'angry', type: 'boolean', name: 'Angry', instructions: 'Is the customer angry?', criteria: {} },
      ],
      ticket: TICKET,
    });
    // The same text a plain JSON.stringify of that object gives (escapes included).
    expect(prompt).toBe(JSON.stringify(JSON.parse(prompt)));
  });

  it('builds the schema once per document object and matches a fresh build', () => {
    const schema = responseSchemaOf(document);
    expect(schema).toEqual(buildResponseSchema(document));
    expect(responseSchemaOf(document)).toBe(schema);
    const copy = parse(structuredClone(raw));
    expect(responseSchemaOf(copy)).not.toBe(schema);
    expect(responseSchemaOf(copy)).toEqual(schema);
  });
});
