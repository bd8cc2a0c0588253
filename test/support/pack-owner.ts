import { randomUUID } from 'node:crypto';

/** A user with one pack whose draft version is `packVersionId`: what repository int-specs hang rows on. */
export interface PackOwner {
  userId: string;
  packId: string;
  packVersionId: string;
}

export function newPackOwner(): PackOwner {
  return { userId: randomUUID(), packId: randomUUID(), packVersionId: randomUUID() };
}

/**
 * Inserts the owner's user, pack and draft version directly (no API), through `query`, which must be
 * a transaction's: the pack's key to its draft version is checked at commit. The version's
 * document is `document`, as JSON text.
 */
export async function insertPackOwner(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  { userId, packId, packVersionId }: PackOwner,
  document = '{"questions":[]}',
): Promise<void> {
  await query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [
    userId,
    `${userId}@example.test`,
  ]);
  await query(`INSERT INTO packs (id, user_id, name, draft_version_id) VALUES ($1, $2, 'p', $3)`, [
    packId,
    userId,
    packVersionId,
  ]);
  await query(`INSERT INTO pack_versions (id, pack_id, user_id, document) VALUES ($1, $2, $3, $4)`, [
    packVersionId,
    packId,
    userId,
    document,
  ]);
}

/** An evaluation of the owner's pack as the worker records an inbound event's (a `NewEvaluation`). */
export function inboundEvaluation(owner: PackOwner, overrides: { id?: string; packVersionId?: string } = {}) {
  return {
    id: randomUUID(),
    userId: owner.userId,
    packId: owner.packId,
    packVersionId: owner.packVersionId,
    source: 'webhook' as const,
    status: 'accept' as const,
    redactedTicket: { subject: 's', customerMessage: 'm' },
    result: { status: 'accept' as const, answers: {}, reviewReasons: [], modelId: 'm', latencyMs: 1 },
    modelId: 'm',
    latencyMs: 1,
    inputTokens: 0,
    outputTokens: 0,
    ...overrides,
  };
}
