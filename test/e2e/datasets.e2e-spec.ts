import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client } from '../support/client.js';
import { createPack, createPublishedPack, triageDocument } from '../support/packs.js';

const ticket = (i: number) => ({ subject: `Subject ${i}`, customerMessage: `Message ${i}` });
const ticketsFrom = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ticket(from + i));

async function createDataset(client: Client, name = 'Set') {
  const res = await client.post('/api/datasets', { name });
  if (res.status !== 201) throw new Error(`dataset creation failed: ${res.status} ${res.text}`);
  return res.body as { id: string; name: string; ticketCount: number; createdAt: string };
}

const upload = (client: Client, datasetId: string, tickets: unknown[]) =>
  client.post(`/api/datasets/${datasetId}/tickets`, { tickets });

const uploadCsv = (client: Client, datasetId: string, csv: string, contentType = 'text/csv') =>
  client.post(`/api/datasets/${datasetId}/tickets`, undefined, { raw: csv, contentType });

async function fill(client: Client, datasetId: string, count: number) {
  for (let from = 0; from < count; from += 250) {
    const res = await upload(client, datasetId, ticketsFrom(from, Math.min(250, count - from)));
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.text}`);
  }
}

/** Every stored ticket, page by page, with the number of pages. */
async function readAll(client: Client, datasetId: string) {
  const items: Array<{ id: string; position: number; ticket: any; expected?: any; createdAt: string }> = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query: string = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
    const res = await client.get(`/api/datasets/${datasetId}/tickets${query}`);
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    pages += 1;
  } while (cursor);
  return { items, pages };
}

describe('datasets', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates, lists (newest first), reads and deletes datasets', async () => {
    const { keyed } = await newTenant(api.url);
    const created = await keyed.post('/api/datasets', { name: 'November' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'November',
      ticketCount: 0,
      maxTickets: 250,
      createdAt: expect.any(String),
    });
    const second = await createDataset(keyed, 'December');
    const list = await keyed.get('/api/datasets');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ items: [second, created.body] });
    const one = await keyed.get(`/api/datasets/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(created.body);

    const deleted = await keyed.delete(`/api/datasets/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await keyed.get('/api/datasets')).body).toEqual({ items: [second] });
  });

  it('refuses a dataset without a valid name', async () => {
    const { keyed } = await newTenant(api.url);
    for (const body of [{}, { name: '' }, { name: 42 }, { name: 'ok', extra: true }]) {
      const res = await keyed.post('/api/datasets', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid request');
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
  });

  it("answers 404 dataset not found for missing, deleted and another user's datasets on every route", async () => {
    const owner = await newTenant(api.url);
    const other = await newTenant(api.url);
    const foreign = await createDataset(other.keyed);
    await upload(other.keyed, foreign.id, [ticket(0)]);
    const deleted = await createDataset(owner.keyed);
    await upload(owner.keyed, deleted.id, [ticket(0)]);
    expect((await owner.keyed.delete(`/api/datasets/${deleted.id}`)).status).toBe(204);

    for (const id of [randomUUID(), 'not-a-uuid', deleted.id, foreign.id]) {
      for (const res of [
        await owner.keyed.get(`/api/datasets/${id}`),
        await owner.keyed.get(`/api/datasets/${id}/tickets`),
        await upload(owner.keyed, id, [ticket(1)]),
        await uploadCsv(owner.keyed, id, 'subject,customerMessage\nHi,there\n'),
        await owner.keyed.delete(`/api/datasets/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ error: 'dataset not found' });
      }
    }
    // The other user's dataset is untouched.
    expect((await other.keyed.get(`/api/datasets/${foreign.id}`)).body.ticketCount).toBe(1);
    expect((await other.keyed.get(`/api/datasets/${foreign.id}/tickets`)).body.items).toHaveLength(1);
  });

  it('appends JSON uploads in order and counts them', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const full = {
      externalId: 'ZD-1',
      subject: 'Charged twice',
      customerMessage: 'I was billed twice this month.',
      messages: [{ role: 'agent', text: 'Looking into it.', at: '2026-11-20T10:00:00Z' }],
      metadata: { plan: 'pro', seats: 3, vip: false, region: null },
      createdAt: '2026-11-20T09:00:00Z',
    };
    const first = await upload(keyed, dataset.id, [full, ticket(1)]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ inserted: 2, skipped: 0, total: 2 });
    const second = await upload(keyed, dataset.id, [ticket(2)]);
    expect(second.body).toEqual({ inserted: 1, skipped: 0, total: 3 });
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(3);

    const page = await keyed.get(`/api/datasets/${dataset.id}/tickets`);
    expect(page.status).toBe(200);
    expect(page.body.nextCursor).toBeNull();
    expect(page.body.items).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        position: 0,
        ticket: full,
        createdAt: expect.any(String),
      },
      { id: expect.any(String), position: 1, ticket: ticket(1), createdAt: expect.any(String) },
      { id: expect.any(String), position: 2, ticket: ticket(2), createdAt: expect.any(String) },
    ]);
  });

  it('redacts tickets before storing them, from JSON and from CSV', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const res = await upload(keyed, dataset.id, [
      {
        externalId: 'jane.doe@example.com',
        subject: 'Card 4111 1111 1111 1111 charged',
        customerMessage: 'Mail me at jane.doe@example.com or call +44 20 7946 0958.',
        messages: [{ role: 'customer', text: 'My email is bob@example.org' }],
        metadata: { contact: 'jane.doe@example.com', seats: 3 },
      },
    ]);
    expect(res.status).toBe(200);
    const csv = await uploadCsv(
      keyed,
      dataset.id,
      'subject,customerMessage,phone\nCall me,"Reach me at +44 20 7946 0958, or 4111-1111-1111-1111",+1 415 555 0100\n',
    );
    expect(csv.status).toBe(200);

    const { items } = await readAll(keyed, dataset.id);
    expect(items.map((item) => item.ticket)).toEqual([
      {
        externalId: 'jane.doe@example.com', // the caller's own id is kept as given
        subject: 'Card [CARD] charged',
        customerMessage: 'Mail me at [EMAIL] or call [PHONE].',
        messages: [{ role: 'customer', text: 'My email is [EMAIL]' }],
        metadata: { contact: '[EMAIL]', seats: 3 },
      },
      {
        subject: 'Call me',
        customerMessage: 'Reach me at [PHONE], or [CARD]',
        metadata: { phone: '[PHONE]' },
      },
    ]);
  });

  it('validates JSON tickets like the judge route, with issues naming the row, and stores nothing', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const res = await upload(keyed, dataset.id, [
      ticket(0),
      { subject: 'No message' },
      ticket(2),
      { ...ticket(3), messages: [{ role: 'robot', text: 'x' }], metadata: { nested: { a: 1 } } },
      { ...ticket(4), extra: true, createdAt: 'yesterday' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid request');
    const paths = res.body.issues.map((issue: { path: string }) => issue.path);
    expect(new Set(paths)).toEqual(
      new Set([
        'tickets.1.customerMessage',
        'tickets.3.messages.0.role',
        'tickets.3.metadata',
        'tickets.4.extra',
        'tickets.4.createdAt',
      ]),
    );
    expect(JSON.stringify(res.body)).not.toContain('No message');
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it('refuses a JSON body that is not {tickets: [1 to 250 tickets]}', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const path = `/api/datasets/${dataset.id}/tickets`;
    for (const body of [
      {},
      [ticket(0)],
      { tickets: [] },
      { tickets: 'x' },
      { tickets: [ticket(0)], other: 1 },
      { tickets: ticketsFrom(0, 251) },
      { tickets: [42] },
    ]) {
      const res = await keyed.post(path, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid request');
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    const empty = await keyed.post(path);
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('invalid request');
    const invalid = await keyed.post(path, undefined, {
      raw: '{"tickets": [',
      contentType: 'application/json',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'invalid JSON' });
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it('takes CSV: externalId, other columns as metadata strings, empty cells left out', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const res = await uploadCsv(
      keyed,
      dataset.id,
      [
        'externalId,subject,customerMessage,plan,seats',
        'ZD-1,Charged twice,Please refund,pro,3',
        ',Login broken,Cannot sign in,,',
        '',
        'ZD-3,Feature request,Dark mode please,free,',
      ].join('\n'),
      'text/csv; charset=utf-8',
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ inserted: 3, skipped: 0, total: 3 });
    const { items } = await readAll(keyed, dataset.id);
    expect(items.map((item) => item.ticket)).toEqual([
      {
        externalId: 'ZD-1',
        subject: 'Charged twice',
        customerMessage: 'Please refund',
        metadata: { plan: 'pro', seats: '3' },
      },
      { subject: 'Login broken', customerMessage: 'Cannot sign in' },
      {
        externalId: 'ZD-3',
        subject: 'Feature request',
        customerMessage: 'Dark mode please',
        metadata: { plan: 'free' },
      },
    ]);
  });

  it('keeps quoted commas, quotes, line breaks and UTF-8 through a CSV round trip', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const tickets = [
      {
        subject: 'Zoë, the café owner',
        customerMessage: 'Line one,\nline two with "quotes"\r\nand a third — naïve 日本語 🎉',
        metadata: { note: 'a, b; "c"' },
      },
      { subject: 'Plain', customerMessage: 'Nothing special' },
    ];
    const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
    const csv =
      '\ufeffsubject,customerMessage,note\r\n' +
      tickets
        .map((t) => [t.subject, t.customerMessage, t.metadata?.note ?? ''].map(quote).join(','))
        .join('\r\n') +
      '\r\n';
    const res = await uploadCsv(keyed, dataset.id, csv);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ inserted: 2, skipped: 0, total: 2 });
    const { items } = await readAll(keyed, dataset.id);
    expect(items.map((item) => item.ticket)).toEqual(tickets);
  });

  it('validates CSV rows with issues naming the 0-based data row', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const res = await uploadCsv(
      keyed,
      dataset.id,
      'subject,customerMessage,externalId\nOne,Fine,\nTwo,Fine,\nThree,,X\n,Four,\n',
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid request');
    expect(res.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'tickets.2.customerMessage',
      'tickets.3.subject',
    ]);
    const headerOnly = await uploadCsv(keyed, dataset.id, 'subject,customerMessage\n');
    expect(headerOnly.status).toBe(400);
    expect(headerOnly.body.issues.map((issue: { path: string }) => issue.path)).toEqual(['tickets']);
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it('refuses a CSV without the subject and customerMessage columns, or with a bad header', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    for (const csv of ['subject,message\nHi,there\n', 'customerMessage\nthere\n', '', '\n\n']) {
      const res = await uploadCsv(keyed, dataset.id, csv);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'CSV header must contain subject and customerMessage' });
    }
    const duplicate = await uploadCsv(keyed, dataset.id, 'subject,customerMessage,plan,plan\na,b,c,d\n');
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ error: 'CSV header names a column twice: plan' });
    const unnamed = await uploadCsv(keyed, dataset.id, 'subject,customerMessage,\na,b,c\n');
    expect(unnamed.status).toBe(400);
    expect(unnamed.body).toEqual({ error: 'CSV header has an empty column name (column 3)' });
  });

  it('refuses a malformed CSV naming the line, without echoing its text', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const cases: Array<[string, string]> = [
      [
        'subject,customerMessage\nOne,Fine\n"Secret subject,never closed\nThree,Fine\n',
        'invalid CSV at line 3: quote not closed',
      ],
      [
        'subject,customerMessage\nOne,Fine\n"Two\nlines",Fine\n\nFour,Fine,extra secret\nFive,Fine\n',
        'invalid CSV at line 6: expected 2 fields like the header, found 3',
      ],
      [
        'subject,customerMessage\nOne,Fine\nshort\n',
        'invalid CSV at line 3: expected 2 fields like the header, found 1',
      ],
      [
        'subject,customerMessage\n"One"secret,Fine\n',
        'invalid CSV at line 2: unexpected character after a closing quote',
      ],
      [
        'subject,customerMessage\nOne,Fine\nTwo,a "secret" quote\n',
        'invalid CSV at line 3: quote inside an unquoted field',
      ],
    ];
    for (const [csv, error] of cases) {
      const res = await uploadCsv(keyed, dataset.id, csv);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error });
    }
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it('holds at most 250 tickets, counting what is stored, and refuses an upload whole', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    await fill(keyed, dataset.id, 200);
    const over = await upload(keyed, dataset.id, ticketsFrom(200, 51));
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'dataset would exceed 250 tickets (200 stored, 51 uploaded)' });
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(200);
    expect((await readAll(keyed, dataset.id)).items).toHaveLength(200);

    const csvRows = ticketsFrom(200, 51).map((t) => `${t.subject},${t.customerMessage}`);
    const overCsv = await uploadCsv(keyed, dataset.id, ['subject,customerMessage', ...csvRows].join('\n'));
    expect(overCsv.status).toBe(400);
    expect(overCsv.body.error).toBe('dataset would exceed 250 tickets (200 stored, 51 uploaded)');

    const exact = await upload(keyed, dataset.id, ticketsFrom(200, 50));
    expect(exact.status).toBe(200);
    expect(exact.body).toEqual({ inserted: 50, skipped: 0, total: 250 });
    const oneMore = await upload(keyed, dataset.id, [ticket(250)]);
    expect(oneMore.status).toBe(400);
    expect(oneMore.body.error).toBe('dataset would exceed 250 tickets (250 stored, 1 uploaded)');
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(250);
  });

  it('refuses 251 tickets in one upload, JSON or CSV', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const json = await upload(keyed, dataset.id, ticketsFrom(0, 251));
    expect(json.status).toBe(400);
    expect(json.body.issues).toEqual([{ path: 'tickets', message: expect.stringContaining('250') }]);
    const rows = ticketsFrom(0, 251).map((t) => `${t.subject},${t.customerMessage}`);
    const csv = await uploadCsv(keyed, dataset.id, ['subject,customerMessage', ...rows].join('\n'));
    expect(csv.status).toBe(400);
    expect(csv.body.issues).toEqual([{ path: 'tickets', message: expect.stringContaining('250') }]);
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it('never stores more than 250 tickets when uploads race', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => upload(keyed, dataset.id, ticketsFrom(i * 60, 60))),
    );
    const succeeded = results.filter((res) => res.status === 200);
    const refused = results.filter((res) => res.status !== 200);
    expect(succeeded).toHaveLength(4);
    for (const res of refused) {
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('dataset would exceed 250 tickets (240 stored, 60 uploaded)');
    }
    expect(succeeded.map((res) => res.body.total).sort((a, b) => a - b)).toEqual([60, 120, 180, 240]);
    const inserted = succeeded.reduce((sum, res) => sum + res.body.inserted, 0);
    const { items } = await readAll(keyed, dataset.id);
    expect(items).toHaveLength(inserted);
    expect(inserted).toBeLessThanOrEqual(250);
    expect(items.map((item) => item.position)).toEqual(Array.from({ length: inserted }, (_, i) => i));
    // Each upload's tickets stay together, in order.
    for (let block = 0; block < items.length; block += 60) {
      const subjects = items
        .slice(block, block + 60)
        .map((item) => Number(item.ticket.subject.split(' ')[1]));
      expect(subjects).toEqual(Array.from({ length: 60 }, (_, i) => subjects[0] + i));
    }
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(inserted);
  });

  it('pages tickets by position, 100 a page, without loss or repeats', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    await fill(keyed, dataset.id, 230);
    const first = await keyed.get(`/api/datasets/${dataset.id}/tickets`);
    expect(first.body.items).toHaveLength(100);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const { items, pages } = await readAll(keyed, dataset.id);
    expect(pages).toBe(3);
    expect(items.map((item) => item.position)).toEqual(Array.from({ length: 230 }, (_, i) => i));
    expect(items.map((item) => item.ticket)).toEqual(ticketsFrom(0, 230));
    expect(new Set(items.map((item) => item.id)).size).toBe(230);

    const exactly = await createDataset(keyed);
    await fill(keyed, exactly.id, 100);
    const only = await keyed.get(`/api/datasets/${exactly.id}/tickets`);
    expect(only.body.items).toHaveLength(100);
    expect(only.body.nextCursor).toBeNull();
    const empty = await keyed.get(`/api/datasets/${(await createDataset(keyed)).id}/tickets`);
    expect(empty.body).toEqual({ items: [], nextCursor: null });
  });

  it('refuses a malformed, tampered or foreign cursor with 400 invalid cursor', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const other = await createDataset(keyed);
    await fill(keyed, dataset.id, 101);
    await fill(keyed, other.id, 101);
    const cursor: string = (await keyed.get(`/api/datasets/${dataset.id}/tickets`)).body.nextCursor;
    const [payload, signature] = cursor.split('.');
    const tampered = `${Buffer.from('[5]').toString('base64url')}.${signature}`;
    for (const [id, bad] of [
      [dataset.id, 'garbage'],
      [dataset.id, `${payload}.${'A'.repeat(signature.length)}`],
      [dataset.id, tampered],
      [other.id, cursor],
    ]) {
      const res = await keyed.get(`/api/datasets/${id}/tickets?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    }
    const next = await keyed.get(`/api/datasets/${dataset.id}/tickets?cursor=${encodeURIComponent(cursor)}`);
    expect(next.body.items.map((item: { position: number }) => item.position)).toEqual([100]);
  });

  it('needs packs:write to create, upload and delete, and packs:read to read', async () => {
    const { session, keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const { client: reader } = await createKey(session, ['packs:read']);
    const { client: writer } = await createKey(session, ['packs:write']);

    for (const res of [
      await reader.post('/api/datasets', { name: 'Nope' }),
      await upload(reader, dataset.id, [ticket(0)]),
      await uploadCsv(reader, dataset.id, 'subject,customerMessage\na,b\n'),
      await reader.delete(`/api/datasets/${dataset.id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'missing permission packs:write' });
    }
    for (const res of [
      await writer.get('/api/datasets'),
      await writer.get(`/api/datasets/${dataset.id}`),
      await writer.get(`/api/datasets/${dataset.id}/tickets`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'missing permission packs:read' });
    }
    expect((await reader.get(`/api/datasets/${dataset.id}`)).status).toBe(200);
    expect((await writer.post('/api/datasets', { name: 'Yes' })).status).toBe(201);
    expect((await upload(writer, dataset.id, [ticket(0)])).body).toEqual({
      inserted: 1,
      skipped: 0,
      total: 1,
    });
    // A signed-in session holds every permission, CSV included.
    expect((await uploadCsv(session, dataset.id, 'subject,customerMessage\na,b\n')).body).toEqual({
      inserted: 1,
      skipped: 0,
      total: 2,
    });
    // Deleting a ticket takes packs:write; the template, packs:read.
    const [first] = (await reader.get(`/api/datasets/${dataset.id}/tickets`)).body.items;
    const denied = await reader.delete(`/api/datasets/${dataset.id}/tickets/${first.id}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ error: 'missing permission packs:write' });
    const pack = (await session.post('/api/packs', { name: 'P' })).body;
    const template = await writer.get(`/api/packs/${pack.id}/dataset-template`);
    expect(template.status).toBe(403);
    expect(template.body).toEqual({ error: 'missing permission packs:read' });
    expect((await reader.get(`/api/packs/${pack.id}/dataset-template`)).status).toBe(200);
    expect((await writer.delete(`/api/datasets/${dataset.id}/tickets/${first.id}`)).status).toBe(204);
  });

  it('answers a CSV body with 415 on every other route, and other types with 415 on the upload', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const csv = 'subject,customerMessage\na,b\n';
    for (const [method, path] of [
      ['POST', '/api/datasets'],
      ['POST', '/api/packs'],
      ['POST', '/api/judge'],
      ['POST', '/api/auth/sign-up'],
      ['DELETE', `/api/datasets/${dataset.id}`],
    ]) {
      const res = await keyed.request(method, path, { raw: csv, contentType: 'text/csv' });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: 'unsupported media type' });
    }
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await uploadCsv(keyed, dataset.id, csv, contentType);
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: 'unsupported media type' });
    }
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it('skips tickets whose externalId the dataset holds, and repeats within an upload, counting them', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const csv = [
      'externalId,subject,customerMessage',
      'ZD-1,First,One',
      'ZD-2,Second,Two',
      ',No id,Three',
    ].join('\n');
    expect((await uploadCsv(keyed, dataset.id, csv)).body).toEqual({ inserted: 3, skipped: 0, total: 3 });
    // The same file again: the two with an externalId are skipped, the one without is added.
    expect((await uploadCsv(keyed, dataset.id, csv)).body).toEqual({ inserted: 1, skipped: 2, total: 4 });
    // Within one upload, the first of a repeated externalId is kept.
    const within = await upload(keyed, dataset.id, [
      { externalId: 'ZD-3', subject: 'Kept', customerMessage: 'x' },
      { externalId: 'ZD-3', subject: 'Dropped', customerMessage: 'y' },
      { externalId: 'ZD-1', subject: 'Known', customerMessage: 'z' },
    ]);
    expect(within.body).toEqual({ inserted: 1, skipped: 2, total: 5 });
    const { items } = await readAll(keyed, dataset.id);
    expect(items.map((item) => [item.position, item.ticket.externalId, item.ticket.subject])).toEqual([
      [0, 'ZD-1', 'First'],
      [1, 'ZD-2', 'Second'],
      [2, undefined, 'No id'],
      [3, undefined, 'No id'],
      [4, 'ZD-3', 'Kept'],
    ]);
    // The limit counts only the tickets an upload adds.
    await fill(keyed, dataset.id, 244);
    const known = items.filter((item) => item.ticket.externalId).map((item) => item.ticket);
    const mostlyKnown = await upload(keyed, dataset.id, [...known, ticket(900)]);
    expect(mostlyKnown.body).toEqual({ inserted: 1, skipped: 3, total: 250 });
    const over = await upload(keyed, dataset.id, [...known, { ...ticket(901), externalId: 'NEW' }]);
    expect(over.status).toBe(400);
    expect(over.body).toEqual({ error: 'dataset would exceed 250 tickets (250 stored, 1 uploaded)' });
  });

  it('stores one ticket per externalId when the same CSV is uploaded in parallel', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const rows = Array.from({ length: 40 }, (_, i) => `P-${i},Subject ${i},Message ${i}`);
    const csv = ['externalId,subject,customerMessage', ...rows].join('\n');
    const results = await Promise.all(Array.from({ length: 4 }, () => uploadCsv(keyed, dataset.id, csv)));
    expect(results.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect(results.map((res) => res.body.inserted).sort((a, b) => a - b)).toEqual([0, 0, 0, 40]);
    expect(results.map((res) => res.body.skipped).sort((a, b) => a - b)).toEqual([0, 40, 40, 40]);
    const { items } = await readAll(keyed, dataset.id);
    expect(items.map((item) => item.ticket.externalId)).toEqual(rows.map((_, i) => `P-${i}`));
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(40);
  });

  it('deletes a single ticket: the rest move up a place and the count goes down', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    await upload(
      keyed,
      dataset.id,
      ticketsFrom(0, 4).map((t, i) => ({ ...t, externalId: `D-${i}` })),
    );
    const before = (await readAll(keyed, dataset.id)).items;
    const res = await keyed.delete(`/api/datasets/${dataset.id}/tickets/${before[1].id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = (await readAll(keyed, dataset.id)).items;
    expect(after.map((item) => [item.id, item.position])).toEqual([
      [before[0].id, 0],
      [before[2].id, 1],
      [before[3].id, 2],
    ]);
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(3);
    // Gone for good: deleting it again is 404, and its externalId can be uploaded again, at the end.
    const again = await keyed.delete(`/api/datasets/${dataset.id}/tickets/${before[1].id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'ticket not found' });
    expect((await upload(keyed, dataset.id, [{ ...ticket(1), externalId: 'D-1' }])).body).toEqual({
      inserted: 1,
      skipped: 0,
      total: 4,
    });
    expect((await readAll(keyed, dataset.id)).items.map((item) => item.position)).toEqual([0, 1, 2, 3]);
  });

  it("answers 404 for another user's, unknown or malformed tickets and datasets, and deletes nothing", async () => {
    const owner = await newTenant(api.url);
    const other = await newTenant(api.url);
    const mine = await createDataset(owner.keyed);
    const theirs = await createDataset(other.keyed);
    await upload(owner.keyed, mine.id, [ticket(0)]);
    await upload(other.keyed, theirs.id, [ticket(0)]);
    const [myTicket] = (await readAll(owner.keyed, mine.id)).items;
    const [theirTicket] = (await readAll(other.keyed, theirs.id)).items;
    for (const [datasetId, ticketId, error] of [
      [theirs.id, theirTicket.id, 'dataset not found'],
      [theirs.id, myTicket.id, 'dataset not found'],
      [mine.id, theirTicket.id, 'ticket not found'],
      [mine.id, randomUUID(), 'ticket not found'],
      [mine.id, 'not-a-uuid', 'ticket not found'],
      ['not-a-uuid', myTicket.id, 'dataset not found'],
    ]) {
      const res = await owner.keyed.delete(`/api/datasets/${datasetId}/tickets/${ticketId}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error });
    }
    expect((await readAll(other.keyed, theirs.id)).items).toHaveLength(1);
    expect((await readAll(owner.keyed, mine.id)).items).toHaveLength(1);
  });

  it('refuses to delete a ticket while a simulation over the dataset is queued', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    await upload(keyed, dataset.id, ticketsFrom(0, 2));
    const pack = await createPublishedPack(keyed);
    // No worker runs in this file: the simulation stays queued.
    const simulation = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    expect(simulation.status).toBe(202);
    const [first] = (await readAll(keyed, dataset.id)).items;
    const refused = await keyed.delete(`/api/datasets/${dataset.id}/tickets/${first.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ error: 'dataset has a simulation in progress' });
    expect((await readAll(keyed, dataset.id)).items).toHaveLength(2);
    await keyed.post(`/api/simulations/${simulation.body.id}/cancel`);
    expect((await keyed.delete(`/api/datasets/${dataset.id}/tickets/${first.id}`)).status).toBe(204);
  });

  it('stores expected answers from JSON and from expected:<questionId> CSV columns', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const json = await upload(keyed, dataset.id, [
      { ...ticket(0), expected: { department: 'billing', abusive: false, complexity: 2 } },
      { ...ticket(1), expected: {} },
      ticket(2),
    ]);
    expect(json.status).toBe(200);
    const csv = [
      'subject,customerMessage,expected:department,expected:abusive,plan',
      'CSV one,Message,technical,yes,pro',
      'CSV two,Message,,,',
    ].join('\n');
    expect((await uploadCsv(keyed, dataset.id, csv)).status).toBe(200);
    const { items } = await readAll(keyed, dataset.id);
    expect(items.map((item) => item.expected)).toEqual([
      { department: 'billing', abusive: false, complexity: 2 },
      undefined,
      undefined,
      { department: 'technical', abusive: 'yes' },
      undefined,
    ]);
    // Expected answers are not ticket fields, and an expected column is not metadata.
    expect(items[0].ticket).toEqual(ticket(0));
    expect(items[3].ticket).toEqual({
      subject: 'CSV one',
      customerMessage: 'Message',
      metadata: { plan: 'pro' },
    });
    expect(Object.keys(items[2])).not.toContain('expected');
  });

  it('refuses badly shaped expected answers with 400 and issues naming the ticket, storing nothing', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    for (const expected of [
      'billing',
      ['billing'],
      { department: { choice: 'billing' } },
      { department: null },
      { department: '' },
      { 'not an id': 'x' },
      { department: 'x'.repeat(1001) },
      Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, 'x'])),
    ]) {
      const res = await upload(keyed, dataset.id, [ticket(0), { ...ticket(1), expected }]);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid request');
      expect(res.body.issues.length).toBeGreaterThan(0);
      for (const issue of res.body.issues) expect(issue.path).toBe('tickets.1.expected');
    }
    const longCell = await uploadCsv(
      keyed,
      dataset.id,
      `subject,customerMessage,expected:department\nA,B,ok\nC,D,${'x'.repeat(1001)}\n`,
    );
    expect(longCell.status).toBe(400);
    expect(longCell.body.issues).toEqual([
      expect.objectContaining({ path: expect.stringMatching(/^tickets\.1\.expected/) }),
    ]);
    const badColumn = await uploadCsv(keyed, dataset.id, 'subject,customerMessage,expected:a b\nA,B,x\n');
    expect(badColumn.status).toBe(400);
    expect(badColumn.body).toEqual({
      error:
        'CSV header column 3: expected: must be followed by a question id (1 to 64 letters, digits, _ or -)',
    });
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });

  it("writes a pack's CSV template: the ticket columns and an expected column per question", async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPack(keyed, triageDocument(), 'Support "triage", v2');
    // Unpublished: the draft's questions.
    const draft = await keyed.get(`/api/packs/${pack.id}/dataset-template`);
    expect(draft.status).toBe(200);
    expect(draft.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(draft.headers.get('content-disposition')).toBe(
      'attachment; filename="support-triage-v2-dataset-template.csv"',
    );
    expect(draft.text).toBe(
      'externalId,subject,customerMessage,expected:department,expected:abusive,expected:complexity\r\n',
    );
    const noLive = await keyed.get(`/api/packs/${pack.id}/dataset-template?version=live`);
    expect(noLive.status).toBe(409);
    expect(noLive.body).toEqual({ error: 'pack has no published version' });
    // Published, then the draft drops a question: live by default, the draft when asked.
    expect((await keyed.post(`/api/packs/${pack.id}/publish`)).status).toBe(200);
    const document = triageDocument();
    document.questions = document.questions.slice(0, 1);
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document })).status).toBe(200);
    expect((await keyed.get(`/api/packs/${pack.id}/dataset-template`)).text).toBe(draft.text);
    expect((await keyed.get(`/api/packs/${pack.id}/dataset-template?version=draft`)).text).toBe(
      'externalId,subject,customerMessage,expected:department\r\n',
    );
    // The template, filled in, is an upload the dataset takes.
    const dataset = await createDataset(keyed);
    const filled = `${draft.text}ZD-1,Charged twice,Refund please,billing,no,2\r\n`;
    expect((await uploadCsv(keyed, dataset.id, filled)).body).toEqual({ inserted: 1, skipped: 0, total: 1 });
    expect((await readAll(keyed, dataset.id)).items[0].expected).toEqual({
      department: 'billing',
      abusive: 'no',
      complexity: '2',
    });
    // Bad input never 500s; other users' packs are not found.
    const bad = await keyed.get(`/api/packs/${pack.id}/dataset-template?version=old`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid request');
    const other = await newTenant(api.url);
    for (const id of [pack.id, randomUUID(), 'not-a-uuid']) {
      const res = await other.keyed.get(`/api/packs/${id}/dataset-template`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'pack not found' });
    }
  });

  it('documents the routes, their permissions and both upload formats in OpenAPI', async () => {
    const doc = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as any;
    for (const [path, method, permission] of [
      ['/api/datasets', 'post', 'packs:write'],
      ['/api/datasets', 'get', 'packs:read'],
      ['/api/datasets/{datasetId}', 'get', 'packs:read'],
      ['/api/datasets/{datasetId}', 'delete', 'packs:write'],
      ['/api/datasets/{datasetId}/tickets', 'get', 'packs:read'],
      ['/api/datasets/{datasetId}/tickets', 'post', 'packs:write'],
      ['/api/datasets/{datasetId}/tickets/{ticketId}', 'delete', 'packs:write'],
      ['/api/packs/{packId}/dataset-template', 'get', 'packs:read'],
    ]) {
      const operation = doc.paths[path]?.[method];
      expect(operation['x-permission']).toBe(permission);
      expect(operation.responses['403'].description).toContain(`missing permission ${permission}`);
    }
    const uploadOperation = doc.paths['/api/datasets/{datasetId}/tickets'].post;
    expect(uploadOperation.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/UploadTicketsDto',
    );
    expect(uploadOperation.requestBody.content['text/csv'].schema.type).toBe('string');
    expect(uploadOperation.requestBody.content['text/csv'].schema.description).toContain('customerMessage');
    expect(doc.components.schemas.UploadTicketsDto.properties.tickets).toMatchObject({
      minItems: 1,
      maxItems: 250,
    });
    expect(uploadOperation.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'datasetId',
    ]);
    expect(uploadOperation.responses['200']).toBeDefined();
    expect(uploadOperation.responses['400']).toBeDefined();
    expect(uploadOperation.responses['404']).toBeDefined();
  });
});

describe('datasets under a small body limit', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ BODY_LIMIT_BYTES: '4096' });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers a CSV body over the limit with 413 and stores nothing', async () => {
    const { keyed } = await newTenant(api.url);
    const dataset = await createDataset(keyed);
    const rows = ticketsFrom(0, 50).map((t) => `${t.subject},${t.customerMessage} ${'x'.repeat(100)}`);
    const res = await uploadCsv(keyed, dataset.id, ['subject,customerMessage', ...rows].join('\n'));
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
    expect((await keyed.get(`/api/datasets/${dataset.id}`)).body.ticketCount).toBe(0);
  });
});
