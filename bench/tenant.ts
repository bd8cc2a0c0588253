import { randomUUID } from 'node:crypto';

/** The pack of the end-to-end tests: one question of each type, outcomes and derive. */
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

export const TICKET = {
  externalId: 'ZD-1001',
  subject: 'Charged twice',
  customerMessage:
    'Hello, I was charged twice for my subscription. Please refund one payment. Reach me at jane.doe@example.com.',
  messages: [{ role: 'agent', text: 'Thanks, looking into it.', at: '2026-11-20T10:00:00Z' }],
  metadata: { plan: 'pro', seats: 3, vip: false, region: null },
};

export interface BenchTenant {
  apiKey: string;
  packId: string;
}

async function call(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; cookie?: string }> {
  // The content type goes only with a body: the API refuses it on an empty one.
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const cookie = response.headers
    .getSetCookie()
    .find((c) => c.startsWith('tj_session='))
    ?.split(';')[0];
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, cookie };
}

function expectStatus(step: string, status: number, expected: number, body: unknown): void {
  if (status !== expected) throw new Error(`${step} answered ${status}: ${JSON.stringify(body)}`);
}

/** A user, an API key and a published triage pack, created over HTTP like a real tenant would. */
export async function createTenant(
  baseUrl: string,
  account = { email: `bench-${randomUUID()}@example.com`, password: `bench-${randomUUID()}` },
): Promise<BenchTenant> {
  const signUp = await call(baseUrl, '/api/auth/sign-up', account);
  expectStatus('sign-up', signUp.status, 201, signUp.body);
  if (!signUp.cookie) throw new Error('sign-up set no session cookie');
  const key = await call(baseUrl, '/app/keys', { name: 'bench' }, { cookie: signUp.cookie });
  expectStatus('key creation', key.status, 201, key.body);
  const apiKey = key.body.secret as string;
  const keyed = { 'x-api-key': apiKey };
  const pack = await call(baseUrl, '/api/packs', { name: 'Triage', document: triageDocument() }, keyed);
  expectStatus('pack creation', pack.status, 201, pack.body);
  const packId = pack.body.id as string;
  const published = await call(baseUrl, `/api/packs/${packId}/publish`, undefined, keyed);
  expectStatus('publish', published.status, 200, published.body);
  return { apiKey, packId };
}
