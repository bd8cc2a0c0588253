import type { Client } from './client.js';
import { FakeGateway, type ChatRequest } from './fake-gateway.js';

/** A small, valid pack document exercising all three question types, outcomes and derive. */
export function triageDocument() {
  return {
    questions: [
      {
        type: 'choice',
        id: 'department',
        name: 'Department',
        instructions: 'Which team should handle this ticket?',
        criteria: {
          options: [
            { value: 'billing', description: 'Charges, invoices, refunds, payments' },
            { value: 'technical', description: 'Errors, crashes, bugs, login problems' },
            { value: 'legal', description: 'Lawyers, lawsuits, formal complaints', outcome: 'review' },
          ],
          derive: 'department',
          rubricVersion: 3,
        },
        review: { minSelectedProbability: 0.6 },
      },
      {
        type: 'boolean',
        id: 'abusive',
        name: 'Abusive language',
        instructions: 'Does the customer use insults or threats?',
        criteria: { description: 'insults, slurs, threats', outcomeWhenTrue: 'reject' },
        review: { minSelectedProbability: 0.6 },
      },
      {
        type: 'score',
        id: 'complexity',
        name: 'Complexity',
        instructions: 'How much work will this take?',
        criteria: { min: 1, max: 5, description: '1 trivial, 5 needs engineering' },
        review: { minSelectedProbability: 0 },
      },
    ],
  };
}

/**
 * A candidate draft for shadow runs: the triage questions and one more, `urgent`, by which the fake
 * gateway tells the candidate's requests from the live version's (`fromCandidate`).
 */
export function candidateDocument() {
  const document = triageDocument();
  document.questions.push({
    type: 'boolean',
    id: 'urgent',
    name: 'Urgent',
    instructions: 'Does the customer need an answer today?',
    criteria: { description: 'deadlines, outages, money at stake' },
    review: { minSelectedProbability: 0.6 },
  } as (typeof document.questions)[number]);
  return document;
}

/** Whether a model request comes from `candidateDocument`'s version. */
export function fromCandidate(request: ChatRequest): boolean {
  return FakeGateway.questionIds(request).includes('urgent');
}

export const TICKET = {
  externalId: 'ZD-1001',
  subject: 'Charged twice',
  customerMessage:
    'Hello, I was charged twice for my subscription. Please refund one payment. Reach me at jane.doe@example.com.',
  messages: [{ role: 'agent', text: 'Thanks, looking into it.', at: '2026-11-20T10:00:00Z' }],
  metadata: { plan: 'pro', seats: 3, vip: false, region: null },
};

export async function createPack(client: Client, document: unknown = triageDocument(), name = 'Triage') {
  const res = await client.post('/api/packs', { name, document });
  if (res.status !== 201) throw new Error(`pack creation failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function createPublishedPack(
  client: Client,
  document: unknown = triageDocument(),
  name = 'Triage',
) {
  const pack = await createPack(client, document, name);
  const res = await client.post(`/api/packs/${pack.id}/publish`);
  if (res.status !== 200) throw new Error(`publish failed: ${res.status} ${res.text}`);
  return res.body;
}
