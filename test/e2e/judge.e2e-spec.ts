import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { queryDatabase } from '../support/db.js';
import { createPack, createPublishedPack, TICKET, triageDocument } from '../support/packs.js';

describe('POST /api/judge through an OpenAI-compatible gateway', () => {
  let api: TestApi;
  let gateway: FakeGateway;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({
      MODEL_GATEWAY_URL: gateway.url,
      MODEL_GATEWAY_API_KEY: 'sk-test-gateway',
      MODEL_NAME: 'configured-model',
      MODEL_TIMEOUT_MS: '1000',
    });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  it('judges with one strict structured-output call and stores the evaluation', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      evaluationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      packVersionId: pack.liveVersionId,
      result: {
        status: 'reject',
        answers: {
          department: {
            type: 'choice',
            choice: 'billing',
            probabilities: { billing: 0.9, technical: expect.any(Number), legal: expect.any(Number) },
          },
          abusive: { type: 'boolean', probability: 0.9 },
          complexity: { type: 'score', score: 1, probabilities: expect.objectContaining({ '1': 0.9 }) },
        },
        reviewReasons: [],
        modelId: 'fake-model-2026-01-01',
        latencyMs: expect.any(Number),
        derived: { department: 'billing' },
        usage: { inputTokens: 321, outputTokens: 45 },
      },
    });
    expect(Number.isInteger(res.body.result.latencyMs)).toBe(true);

    expect(gateway.calls).toBe(1);
    const request = gateway.requests[0];
    expect(request.model).toBe('configured-model');
    expect(request.response_format.type).toBe('json_schema');
    expect(request.response_format.json_schema.strict).toBe(true);
    const schema = request.response_format.json_schema.schema as any;
    expect(schema.required).toEqual(['department', 'abusive', 'complexity']);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.department.properties.choice.enum).toEqual(['billing', 'technical', 'legal']);
    expect(schema.properties.department.properties.probabilities.properties.billing).toEqual({
      type: 'number',
      minimum: 0,
      maximum: 1,
    });
    // Only the redacted ticket reaches the model.
    const prompt = request.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('[EMAIL]');
    expect(prompt).not.toContain('jane.doe@example.com');

    const stored = await keyed.get(`/api/evaluations/${res.body.evaluationId}`);
    expect(stored.status).toBe(200);
    expect(stored.body).toEqual({
      id: res.body.evaluationId,
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      source: 'api',
      status: 'reject',
      modelId: 'fake-model-2026-01-01',
      latencyMs: res.body.result.latencyMs,
      createdAt: expect.any(String),
      redactedTicket: {
        ...TICKET,
        customerMessage: TICKET.customerMessage.replace('jane.doe@example.com', '[EMAIL]'),
      },
      result: res.body.result,
      selectedProbabilities: { abusive: 0.9, complexity: 0.9, department: 0.9 },
      usage: { inputTokens: 321, outputTokens: 45 },
      labels: [],
      // The pack's audit is off (rate 0): nothing drawn.
      auditProbability: null,
      auditSelected: null,
      // No calibration map yet (docs/quality.md, "Calibration").
      calibrated: null,
      calibratedWith: null,
    });
  });

  it('accepts when every answer is confident and no outcome objects', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.set({ kind: 'answer', choose: { department: 'technical', abusive: false, complexity: 3 } });
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.body.result).toMatchObject({
      status: 'accept',
      reviewReasons: [],
      derived: { department: 'technical' },
    });
    expect(res.body.result.answers.abusive).toEqual({ type: 'boolean', probability: expect.closeTo(0.1, 5) });
  });

  it('sends low-confidence answers and review outcomes to review, naming each question', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.set({ kind: 'answer', confidence: 0.55, choose: { department: 'legal', abusive: false } });
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.body.result.status).toBe('review');
    expect(res.body.result.reviewReasons).toEqual([
      'low_confidence:department',
      'outcome_review:department',
      'low_confidence:abusive',
    ]);
  });

  it.each([
    ['a 401', { kind: 'status', status: 401 }, 'gateway_auth'],
    ['a 403', { kind: 'status', status: 403 }, 'gateway_auth'],
    ['a 500', { kind: 'status', status: 500 }, 'gateway_unavailable'],
    ['a 429', { kind: 'status', status: 429 }, 'gateway_unavailable'],
    ['a timeout', { kind: 'hang' }, 'gateway_unavailable'],
    [
      'content that is not JSON',
      { kind: 'content', content: 'Sure! The department is billing.' },
      'invalid_model_output',
    ],
    [
      'an unknown choice',
      { kind: 'content', content: JSON.stringify({ department: { choice: 'sales', probabilities: {} } }) },
      'invalid_model_output',
    ],
    ['a probability out of range', { kind: 'answer', confidence: 2 }, 'invalid_model_output'],
    [
      'a missing question',
      {
        kind: 'content',
        content: JSON.stringify({
          department: { choice: 'billing', probabilities: { billing: 1, technical: 0, legal: 0 } },
        }),
      },
      'invalid_model_output',
    ],
  ] as const)('stores %s as review with its failure kind, answering 200', async (_, behaviour, kind) => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.set(behaviour);
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      status: 'review',
      reviewReasons: [kind],
      answers: {},
      modelId: expect.any(String),
    });
    const stored = await keyed.get(`/api/evaluations/${res.body.evaluationId}`);
    expect(stored.body.status).toBe('review');
    expect(stored.body.result.reviewReasons).toEqual([kind]);
  });

  it('stores a pack that cannot be judged as invalid_pack without calling the model', async () => {
    const { keyed } = await newTenant(api.url);
    // Publishing refuses a pack with no questions, so the live version loses them in the database
    // (as a version published before that rule would have none).
    const pack = await createPublishedPack(keyed);
    await queryDatabase(`UPDATE pack_versions SET document = '{"questions": []}' WHERE id = $1`, [
      pack.liveVersionId,
    ]);
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({
      status: 'review',
      reviewReasons: ['invalid_pack'],
      modelId: 'configured-model',
    });
    expect(gateway.calls).toBe(0);
  });

  it('stores a ticket that cannot be judged as invalid_ticket without calling the model', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const blank = await keyed.post('/api/judge', {
      packId: pack.id,
      ticket: { subject: '   ', customerMessage: '\n' },
    });
    expect(blank.body.result.reviewReasons).toEqual(['invalid_ticket']);
    const huge = await keyed.post('/api/judge', {
      packId: pack.id,
      ticket: { subject: 'long', customerMessage: 'word '.repeat(8000) },
    });
    expect(huge.body.result.reviewReasons).toEqual(['invalid_ticket']);
    expect(gateway.calls).toBe(0);
  });

  it('answers 404 pack not found for a missing, deleted or foreign pack, and 409 without a live version', async () => {
    const { keyed } = await newTenant(api.url);
    const { keyed: other } = await newTenant(api.url);
    const foreign = await createPublishedPack(other);
    const deleted = await createPublishedPack(keyed);
    await keyed.delete(`/api/packs/${deleted.id}`);
    for (const packId of [foreign.id, deleted.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await keyed.post('/api/judge', { packId, ticket: TICKET });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'pack not found' });
    }
    const draft = await createPack(keyed);
    const res = await keyed.post('/api/judge', { packId: draft.id, ticket: TICKET });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'pack has no published version' });
    expect(gateway.calls).toBe(0);
  });

  it('judges the live version only, not the draft', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const draft = triageDocument();
    draft.questions.splice(1, 2);
    await keyed.patch(`/api/packs/${pack.id}`, { document: draft });
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.body.packVersionId).toBe(pack.liveVersionId);
    expect(Object.keys(res.body.result.answers)).toEqual(['department', 'abusive', 'complexity']);
  });

  it('validates the body and never echoes the ticket in the error', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const cases = [
      { packId: pack.id },
      { packId: pack.id, ticket: { subject: 'secret subject 4111', customerMessage: '' } },
      { packId: pack.id, ticket: { ...TICKET, messages: [{ role: 'robot', text: 'hi' }] } },
      { packId: pack.id, ticket: { ...TICKET, metadata: { nested: { no: true } } } },
      { packId: pack.id, ticket: { ...TICKET, createdAt: 'yesterday' } },
      { packId: pack.id, ticket: { ...TICKET, unknownField: 'x' } },
      { packId: 42, ticket: TICKET },
    ];
    const paths: string[][] = [];
    for (const body of cases) {
      const res = await keyed.post('/api/judge', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid request');
      expect(res.text).not.toContain('secret subject');
      expect(res.text).not.toContain('jane.doe');
      paths.push([...new Set<string>(res.body.issues.map((issue: { path: string }) => issue.path))]);
    }
    expect(paths).toEqual([
      ['ticket'],
      ['ticket.customerMessage'],
      ['ticket.messages.0.role'],
      ['ticket.metadata'],
      ['ticket.createdAt'],
      ['ticket.unknownField'],
      ['packId'],
    ]);
    expect(gateway.calls).toBe(0);
  });

  it('is key only and needs judgments:run', async () => {
    const { session, keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const withSession = await session.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(withSession.status).toBe(401);
    expect(withSession.body).toEqual({ error: 'API key required' });
    const { client: reader } = await createKey(session, ['judgments:read']);
    const forbidden = await reader.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ error: 'missing permission judgments:run' });
  });
});
