import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { IdempotencyKeyRepository } from '../../libs/judging/src/index.js';
import { WebhookRepository } from '../../libs/persistence/src/index.js';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';
import { queryDatabase as query } from '../support/db.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-inbound-idem`;

describe('Idempotency-Key on POST /api/webhooks/inbound, against a stale claim', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: PREFIX });
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await api.close();
  });

  async function tenant() {
    const { keyed, user } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const inbound = (key: string) =>
      keyed.post(
        '/api/webhooks/inbound',
        { packId: pack.id, ticket: TICKET },
        { headers: { 'idempotency-key': key } },
      );
    const eventCount = async () =>
      (await query(`SELECT count(*)::int AS n FROM inbound_events WHERE user_id = $1`, [user.id]))[0].n;
    /** The first request has run past the stale window (moved in the database rather than waited for). */
    const ageClaims = () =>
      query(`UPDATE idempotency_keys SET created_at = created_at - interval '1 hour' WHERE user_id = $1`, [
        user.id,
      ]);
    return { user, inbound, eventCount, ageClaims };
  }

  it('never drops a completed key: a request that saw the claim stale and pending replays the first eventId', async () => {
    const { inbound, eventCount, ageClaims } = await tenant();
    const keys = api.app.get(IdempotencyKeyRepository);
    const webhooks = api.app.get(WebhookRepository);

    // The first request writes its event, then is held before it completes its key.
    let resume!: () => void;
    const held = new Promise<void>((resolve) => (resume = resolve));
    let written!: () => void;
    const eventWritten = new Promise<void>((resolve) => (written = resolve));
    const createEvent = webhooks.createEvent.bind(webhooks);
    jest.spyOn(webhooks, 'createEvent').mockImplementationOnce(async (event) => {
      await createEvent(event);
      written();
      await held;
    });
    const first = inbound('zendesk-race');
    await eventWritten;
    await ageClaims();

    // The second request reads the claim still pending (and stale); the first completes the key
    // before the second gets to release that stale claim.
    const claim = keys.claim.bind(keys);
    jest.spyOn(keys, 'claim').mockImplementationOnce(async (...args) => {
      const seen = await claim(...args);
      resume();
      await first;
      return seen;
    });
    const second = await inbound('zendesk-race');

    const firstResponse = await first;
    expect(firstResponse.status).toBe(202);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(firstResponse.body);
    expect(await eventCount()).toBe(1);
  });

  it('takes over a stale claim whose request never recorded an event: the same key then creates one event', async () => {
    const { user, inbound, eventCount, ageClaims } = await tenant();
    // A request that claimed the key and then crashed before writing its event.
    await api.app.get(IdempotencyKeyRepository).claim(user.id, 'inbound', 'zendesk-crashed', 24);
    await ageClaims();
    const taken = await inbound('zendesk-crashed');
    expect(taken.status).toBe(202);
    expect(taken.body).toEqual({ eventId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const replayed = await inbound('zendesk-crashed');
    expect(replayed.body).toEqual(taken.body);
    expect(await eventCount()).toBe(1);
  });
});
