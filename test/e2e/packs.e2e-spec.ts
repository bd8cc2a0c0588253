import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant } from '../support/client.js';
import { createPack, createPublishedPack, triageDocument } from '../support/packs.js';

describe('packs', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates a draft-only pack; an absent document means no questions', async () => {
    const { keyed } = await newTenant(api.url);
    const res = await keyed.post('/api/packs', { name: 'Empty' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Empty',
      liveVersionId: null,
      draftVersionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      document: { questions: [] },
      liveDocument: null,
      unpublishedChanges: false,
      updatedAt: expect.any(String),
    });
    const list = await keyed.get('/api/packs');
    expect(list.body).toEqual([
      {
        id: res.body.id,
        name: 'Empty',
        liveVersionId: null,
        updatedAt: res.body.updatedAt,
        questionCount: 0,
        unpublishedChanges: false,
        liveVersionNumber: null,
      },
    ]);
  });

  it('keeps unknown keys inside criteria', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPack(keyed);
    expect(pack.document.questions[0].criteria.rubricVersion).toBe(3);
    expect(pack.document).toEqual(triageDocument());
  });

  it('validates the document with issues pointing at the offending path', async () => {
    const { keyed } = await newTenant(api.url);
    const bad = triageDocument();
    bad.questions[2].review.minSelectedProbability = 1.5;
    const res = await keyed.post('/api/packs', { name: 'Bad', document: bad });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid request');
    expect(res.body.issues).toEqual([
      { path: 'questions.2.review.minSelectedProbability', message: expect.any(String) },
    ]);
  });

  it.each([
    ['an id with spaces', (d: any) => (d.questions[0].id = 'has space'), 'questions.0.id'],
    ['an id over 64 characters', (d: any) => (d.questions[0].id = 'x'.repeat(65)), 'questions.0.id'],
    ['a duplicate question id', (d: any) => (d.questions[1].id = 'department'), 'questions.1.id'],
    ['an empty name', (d: any) => (d.questions[1].name = ''), 'questions.1.name'],
    [
      'instructions that are not a string',
      (d: any) => (d.questions[1].instructions = 42),
      'questions.1.instructions',
    ],
    [
      'one option only',
      (d: any) => d.questions[0].criteria.options.splice(1),
      'questions.0.criteria.options',
    ],
    [
      'duplicate option values',
      (d: any) => (d.questions[0].criteria.options[1].value = 'billing'),
      'questions.0.criteria.options.1.value',
    ],
    [
      'an unknown outcome',
      (d: any) => (d.questions[0].criteria.options[0].outcome = 'maybe'),
      'questions.0.criteria.options.0.outcome',
    ],
    [
      'an unknown derive',
      (d: any) => (d.questions[0].criteria.derive = 'owner'),
      'questions.0.criteria.derive',
    ],
    ['an unknown question type', (d: any) => (d.questions[1].type = 'text'), 'questions.1.type'],
    ['a score without max', (d: any) => delete d.questions[2].criteria.max, 'questions.2.criteria.max'],
    ['min not below max', (d: any) => (d.questions[2].criteria.min = 9), 'questions.2.criteria.max'],
    ['a missing review', (d: any) => delete d.questions[1].review, 'questions.1.review'],
    ['questions not an array', (d: any) => (d.questions = {}), 'questions'],
  ])('refuses %s', async (_, mutate, path) => {
    const { keyed } = await newTenant(api.url);
    const document = triageDocument();
    mutate(document);
    const res = await keyed.post('/api/packs', { name: 'Bad', document });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid request');
    expect(res.body.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  });

  it('publishes: the draft becomes live and a new draft opens with the same document', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPack(keyed);
    const published = await keyed.post(`/api/packs/${pack.id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.liveVersionId).toBe(pack.draftVersionId);
    expect(published.body.draftVersionId).not.toBe(pack.draftVersionId);
    expect(published.body.liveDocument).toEqual(pack.document);
    expect(published.body.document).toEqual(pack.document);
    const versions = await keyed.get(`/api/packs/${pack.id}/versions`);
    expect(versions.status).toBe(200);
    expect(versions.body).toEqual([
      { id: published.body.draftVersionId, createdAt: expect.any(String), publishedAt: null, number: null },
      { id: pack.draftVersionId, createdAt: expect.any(String), publishedAt: expect.any(String), number: 1 },
    ]);
  });

  it('numbers versions in publication order, per pack; the draft has none until it is published', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPack(keyed);
    const other = await createPublishedPack(keyed, triageDocument(), 'other');
    const live: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      // Each publication changes something (a draft identical to the live version may be refused).
      const document = triageDocument();
      document.questions[0].instructions = `Round ${i}`;
      await keyed.patch(`/api/packs/${pack.id}`, { document });
      live.push((await keyed.post(`/api/packs/${pack.id}/publish`)).body.liveVersionId);
    }
    const versions = (await keyed.get(`/api/packs/${pack.id}/versions`)).body;
    expect(versions.map((v: { id: string; number: number | null }) => [v.id, v.number])).toEqual([
      [expect.any(String), null],
      [live[2], 3],
      [live[1], 2],
      [live[0], 1],
    ]);
    // Each pack counts its own versions; one version read says the same number.
    expect((await keyed.get(`/api/packs/${other.id}/versions`)).body[1].number).toBe(1);
    const second = await keyed.get(`/api/packs/${pack.id}/versions/${live[1]}`);
    expect(second.body).toMatchObject({ id: live[1], number: 2 });
    const draft = await keyed.get(`/api/packs/${pack.id}/versions/${versions[0].id}`);
    expect(draft.body.number).toBeNull();
    const listed = (await keyed.get('/api/packs')).body.find((p: { id: string }) => p.id === pack.id);
    expect(listed.liveVersionNumber).toBe(3);
  });

  it('edits only the draft; the live version never changes on PATCH', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const document = triageDocument();
    document.questions[1].instructions = 'Insults only';
    const patched = await keyed.patch(`/api/packs/${pack.id}`, { name: 'Renamed', document });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('Renamed');
    expect(patched.body.document.questions[1].instructions).toBe('Insults only');
    expect(patched.body.liveDocument).toEqual(triageDocument());
    expect(patched.body.liveVersionId).toBe(pack.liveVersionId);
    expect(patched.body.draftVersionId).toBe(pack.draftVersionId);
    const invalid = await keyed.patch(`/api/packs/${pack.id}`, {
      document: { questions: [{ type: 'choice' }] },
    });
    expect(invalid.status).toBe(400);
    expect((await keyed.get(`/api/packs/${pack.id}`)).body.document.questions[1].instructions).toBe(
      'Insults only',
    );
  });

  it('reports unpublishedChanges by deep comparison, ignoring key order', async () => {
    const { keyed } = await newTenant(api.url);
    const draftOnly = await createPack(keyed, triageDocument(), 'draft only');
    const pack = await createPublishedPack(keyed, triageDocument(), 'published');
    const item = async (id: string) =>
      (await keyed.get('/api/packs')).body.find((p: { id: string }) => p.id === id);
    expect(await item(draftOnly.id)).toMatchObject({
      unpublishedChanges: true,
      questionCount: 3,
      liveVersionId: null,
    });
    expect(await item(pack.id)).toMatchObject({
      unpublishedChanges: false,
      questionCount: 3,
      liveVersionId: pack.liveVersionId,
    });

    // Same content, keys in another order: still no unpublished changes.
    const reordered = {
      questions: triageDocument().questions.map((q) => Object.fromEntries(Object.entries(q).reverse())),
    };
    await keyed.patch(`/api/packs/${pack.id}`, { document: reordered });
    expect((await item(pack.id)).unpublishedChanges).toBe(false);

    const changed = triageDocument();
    changed.questions[0].review.minSelectedProbability = 0.7;
    await keyed.patch(`/api/packs/${pack.id}`, { document: changed });
    expect((await item(pack.id)).unpublishedChanges).toBe(true);
    expect((await keyed.get(`/api/packs/${pack.id}`)).body.unpublishedChanges).toBe(true);
    await keyed.post(`/api/packs/${pack.id}/publish`);
    expect((await item(pack.id)).unpublishedChanges).toBe(false);
    // The pack itself says the same as its list item.
    expect((await keyed.get(`/api/packs/${pack.id}`)).body.unpublishedChanges).toBe(false);
    expect((await keyed.get(`/api/packs/${draftOnly.id}`)).body.unpublishedChanges).toBe(true);
  });

  it('refuses to publish a draft with no questions: 400 with an issue at questions, nothing written', async () => {
    const { keyed } = await newTenant(api.url);
    const empty = await createPack(keyed, { questions: [] }, 'empty');
    const refused = await keyed.post(`/api/packs/${empty.id}/publish`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: 'invalid request',
      issues: [{ path: 'questions', message: expect.any(String) }],
    });
    // A live pack whose draft lost every question is refused too, and stays live as it was.
    const pack = await createPublishedPack(keyed);
    await keyed.patch(`/api/packs/${pack.id}`, { document: { questions: [] } });
    const again = await keyed.post(`/api/packs/${pack.id}/publish`);
    expect([again.status, again.body.issues?.[0]?.path]).toEqual([400, 'questions']);
    const after = (await keyed.get(`/api/packs/${pack.id}`)).body;
    expect([after.liveVersionId, after.draftVersionId]).toEqual([pack.liveVersionId, pack.draftVersionId]);
    expect(after.liveDocument).toEqual(triageDocument());
    expect((await keyed.get(`/api/packs/${pack.id}/versions`)).body).toHaveLength(2);
  });

  it('publishes a draft identical to the live version as a new version, as documented in OpenAPI', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect(pack.unpublishedChanges).toBe(false);
    const again = await keyed.post(`/api/packs/${pack.id}/publish`);
    expect(again.status).toBe(200);
    expect(again.body.liveVersionId).toBe(pack.draftVersionId);
    expect(again.body.liveDocument).toEqual(pack.liveDocument);
    expect((await keyed.get(`/api/packs/${pack.id}/versions`)).body).toHaveLength(3);
    const doc = (await keyed.get('/docs/openapi.json')).body;
    const publish = doc.paths['/api/packs/{packId}/publish'].post;
    expect(publish.description).toContain('identical to the live version');
    expect(publish.description).toContain('`unpublishedChanges`');
    expect(publish.responses['400'].description).toContain('no questions');
  });

  it('restores a version into the draft (rollback): the draft changes, the live version does not', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const v1 = pack.liveVersionId as string;
    const next = triageDocument();
    next.questions[0].instructions = 'Route it.';
    await keyed.patch(`/api/packs/${pack.id}`, { document: next });
    const v2 = (await keyed.post(`/api/packs/${pack.id}/publish`)).body;
    const restored = await keyed.post(`/api/packs/${pack.id}/versions/${v1}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      id: pack.id,
      liveVersionId: v2.liveVersionId,
      draftVersionId: v2.draftVersionId,
      document: triageDocument(),
      liveDocument: next,
      unpublishedChanges: true,
    });
    expect((await keyed.get(`/api/packs/${pack.id}/versions`)).body).toHaveLength(3);
    const published = (await keyed.post(`/api/packs/${pack.id}/publish`)).body;
    expect(published.liveDocument).toEqual(triageDocument());
    // Restoring the live version gives a draft equal to it.
    const live = await keyed.post(`/api/packs/${pack.id}/versions/${published.liveVersionId}/restore`);
    expect(live.body.unpublishedChanges).toBe(false);
  });

  it("answers 404 on restore for another user's pack or version, a missing one or a malformed id", async () => {
    const { keyed } = await newTenant(api.url);
    const { keyed: other } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const theirs = await createPublishedPack(other);
    const foreign = await keyed.post(`/api/packs/${theirs.id}/versions/${theirs.liveVersionId}/restore`);
    expect([foreign.status, foreign.body]).toEqual([404, { error: 'pack not found' }]);
    for (const versionId of [theirs.liveVersionId, 'not-a-version', '00000000-0000-4000-8000-000000000000']) {
      const res = await keyed.post(`/api/packs/${pack.id}/versions/${versionId}/restore`);
      expect([res.status, res.body]).toEqual([404, { error: 'version not found' }]);
    }
    // Their draft is untouched.
    expect((await other.get(`/api/packs/${theirs.id}`)).body.document).toEqual(triageDocument());
  });

  it('compares two versions by question id', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const next = triageDocument();
    next.questions.splice(1, 1); // remove abusive
    next.questions[0].instructions = 'Route it.'; // change department
    next.questions.push({
      type: 'boolean',
      id: 'refund',
      name: 'Refund',
      instructions: 'Asks for money back?',
      criteria: { description: 'refund' },
      review: { minSelectedProbability: 0.5 },
    } as (typeof next.questions)[number]);
    const draft = (await keyed.patch(`/api/packs/${pack.id}`, { document: next })).body;
    const res = await keyed.get(
      `/api/packs/${pack.id}/compare?from=${pack.liveVersionId}&to=${draft.draftVersionId}`,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      added: ['refund'],
      removed: ['abusive'],
      changed: ['department'],
      changedPaths: { department: ['instructions'] },
    });
    const same = await keyed.get(
      `/api/packs/${pack.id}/compare?from=${pack.liveVersionId}&to=${pack.liveVersionId}`,
    );
    expect(same.body).toEqual({ added: [], removed: [], changed: [], changedPaths: {} });
  });

  it('answers 404 version not found for versions of another pack or user, or no version at all', async () => {
    const { keyed } = await newTenant(api.url);
    const { keyed: other } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const mine = await createPublishedPack(keyed);
    const theirs = await createPublishedPack(other);
    for (const to of [
      mine.liveVersionId,
      theirs.liveVersionId,
      'not-a-version',
      '00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await keyed.get(`/api/packs/${pack.id}/compare?from=${pack.liveVersionId}&to=${to}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'version not found' });
    }
    const missingQuery = await keyed.get(`/api/packs/${pack.id}/compare?from=${pack.liveVersionId}`);
    expect(missingQuery.status).toBe(400);
  });

  it('reads any version with its document, and only of this pack and user', async () => {
    const { keyed } = await newTenant(api.url);
    const { keyed: other } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const next = triageDocument();
    next.questions[0].instructions = 'Route it.';
    await keyed.patch(`/api/packs/${pack.id}`, { document: next });
    const republished = (await keyed.post(`/api/packs/${pack.id}/publish`)).body;
    const first = await keyed.get(`/api/packs/${pack.id}/versions/${pack.liveVersionId}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: pack.liveVersionId,
      createdAt: expect.any(String),
      publishedAt: expect.any(String),
      number: 1,
      document: triageDocument(),
    });
    const draft = await keyed.get(`/api/packs/${pack.id}/versions/${republished.draftVersionId}`);
    expect([draft.body.publishedAt, draft.body.document]).toEqual([null, next]);
    const theirs = await createPublishedPack(other);
    for (const versionId of [theirs.liveVersionId, 'not-a-version']) {
      const res = await keyed.get(`/api/packs/${pack.id}/versions/${versionId}`);
      expect([res.status, res.body]).toEqual([404, { error: 'version not found' }]);
    }
    const foreignPack = await other.get(`/api/packs/${pack.id}/versions/${pack.liveVersionId}`);
    expect([foreignPack.status, foreignPack.body]).toEqual([404, { error: 'pack not found' }]);
  });

  it('exports and imports a pack', async () => {
    const { keyed } = await newTenant(api.url);
    const { keyed: other } = await newTenant(api.url);
    const pack = await createPack(keyed, triageDocument(), 'Exported');
    const exported = await keyed.get(`/api/packs/${pack.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body).toEqual({ name: 'Exported', document: triageDocument() });
    const imported = await other.post('/api/packs/import', exported.body);
    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({
      name: 'Exported',
      document: triageDocument(),
      liveVersionId: null,
    });
    expect(imported.body.id).not.toBe(pack.id);
    const bad = await other.post('/api/packs/import', { name: 'x', document: { questions: [{}] } });
    expect(bad.status).toBe(400);
  });

  it('deletes a pack: gone for every pack route', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.delete(`/api/packs/${pack.id}`)).status).toBe(204);
    for (const res of [
      await keyed.get(`/api/packs/${pack.id}`),
      await keyed.patch(`/api/packs/${pack.id}`, { name: 'x' }),
      await keyed.post(`/api/packs/${pack.id}/publish`),
      await keyed.get(`/api/packs/${pack.id}/export`),
      await keyed.get(`/api/packs/${pack.id}/versions`),
      await keyed.get(`/api/packs/${pack.id}/compare?from=${pack.liveVersionId}&to=${pack.liveVersionId}`),
      await keyed.delete(`/api/packs/${pack.id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'pack not found' });
    }
    expect((await keyed.get('/api/packs')).body).toEqual([]);
  });

  it("treats another user's pack exactly like a missing one", async () => {
    const { keyed } = await newTenant(api.url);
    const { keyed: other } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    for (const res of [
      await other.get(`/api/packs/${pack.id}`),
      await other.patch(`/api/packs/${pack.id}`, { name: 'mine now' }),
      await other.post(`/api/packs/${pack.id}/publish`),
      await other.get(`/api/packs/${pack.id}/export`),
      await other.delete(`/api/packs/${pack.id}`),
      await other.get('/api/packs/not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'pack not found' });
    }
    expect((await other.get('/api/packs')).body).toEqual([]);
    expect((await keyed.get(`/api/packs/${pack.id}`)).body.name).toBe('Triage');
  });

  it('needs packs:read to read and packs:write to write', async () => {
    const { session } = await newTenant(api.url);
    const { client: reader } = await createKey(session, ['packs:read']);
    const { client: writer } = await createKey(session, ['packs:write']);
    const pack = await createPack(writer);
    expect((await reader.get(`/api/packs/${pack.id}`)).status).toBe(200);
    expect((await reader.post('/api/packs', { name: 'x' })).body).toEqual({
      error: 'missing permission packs:write',
    });
    expect((await reader.delete(`/api/packs/${pack.id}`)).body).toEqual({
      error: 'missing permission packs:write',
    });
    expect((await writer.get('/api/packs')).body).toEqual({ error: 'missing permission packs:read' });
    expect((await session.get('/api/packs')).status).toBe(200);
  });
});
