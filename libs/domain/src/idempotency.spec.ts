import { describe, expect, it } from '@jest/globals';
import {
  claimAsFound,
  IDEMPOTENCY_TTL_HOURS,
  idempotencyResultKind,
  IdempotencyRules,
  type IdempotencySurface,
} from './idempotency.js';

const rules = new IdempotencyRules(12_000);
const SURFACES: IdempotencySurface[] = ['judge', 'mcp', 'inbound'];

describe('idempotencyResultKind', () => {
  it('marks judge and mcp keys done by their evaluation, inbound keys by their event', () => {
    expect(SURFACES.map(idempotencyResultKind)).toEqual(['evaluation', 'evaluation', 'event']);
  });
});

describe('claimAsFound', () => {
  const stored = (evaluation: string | null, event: string | null) => ({
    results: { evaluation, event },
    ageMs: 3_000,
  });

  it('reads a judge or mcp claim done by its evaluation, an inbound one by its event', () => {
    expect(claimAsFound('judge', stored('ev1', null))).toEqual({ resultId: 'ev1', ageMs: 3_000 });
    expect(claimAsFound('mcp', stored('ev1', null))).toEqual({ resultId: 'ev1', ageMs: 3_000 });
    expect(claimAsFound('inbound', stored(null, 'in1'))).toEqual({ resultId: 'in1', ageMs: 3_000 });
  });

  it("keeps a claim pending until it has a result of the surface's own kind", () => {
    // An inbound key with an evaluation but no event is not done: replaying the evaluation id would be wrong.
    expect(claimAsFound('inbound', stored('ev1', null))).toEqual({ resultId: null, ageMs: 3_000 });
    expect(claimAsFound('judge', stored(null, 'in1'))).toEqual({ resultId: null, ageMs: 3_000 });
  });

  it('reads a claim gone between the insert and the read as fresh and pending: the request claims again', () => {
    const gone = claimAsFound('judge', null);
    expect(gone).toEqual({ resultId: null, ageMs: 0 });
    expect(rules.onClaimed(gone, 0)).toEqual({ action: 'wait' });
  });
});

describe('IDEMPOTENCY_TTL_HOURS', () => {
  it('keeps a key for a day', () => {
    expect(IDEMPOTENCY_TTL_HOURS).toBe(24);
  });
});

describe('IdempotencyRules', () => {
  it('is stale ten seconds past the model timeout, and waits five seconds more before a 409', () => {
    const fromTimeout = IdempotencyRules.forModelTimeout(2_000);
    expect(fromTimeout.staleAfterMs).toBe(12_000);
    expect(fromTimeout.waitLimitMs).toBe(17_000);
  });

  it('replays a completed claim whatever its age', () => {
    for (const ageMs of [0, 12_001, 86_400_000]) {
      expect(rules.onClaimed({ resultId: 'e1', ageMs }, 0)).toEqual({ action: 'replay', resultId: 'e1' });
      expect(rules.onClaimed({ resultId: 'e1', ageMs }, 60_000)).toEqual({
        action: 'replay',
        resultId: 'e1',
      });
    }
  });

  it('takes over a pending claim only once it is older than the stale window', () => {
    expect(rules.onClaimed({ resultId: null, ageMs: 12_000 }, 0)).toEqual({ action: 'wait' });
    expect(rules.onClaimed({ resultId: null, ageMs: 12_001 }, 0)).toEqual({ action: 'take_over' });
    expect(rules.onClaimed({ resultId: null, ageMs: 12_001 }, 60_000)).toEqual({ action: 'take_over' });
  });

  it('never calls a completed claim stale', () => {
    expect(rules.isStale({ resultId: 'e1', ageMs: 86_400_000 })).toBe(false);
    expect(rules.isStale({ resultId: null, ageMs: 86_400_000 })).toBe(true);
  });

  it('waits for a fresh pending claim until the wait limit, then answers conflict', () => {
    expect(rules.onClaimed({ resultId: null, ageMs: 0 }, 17_000)).toEqual({ action: 'wait' });
    expect(rules.onClaimed({ resultId: null, ageMs: 0 }, 17_001)).toEqual({ action: 'conflict' });
  });

  it('keeps the result of kept work and gives the key up otherwise', () => {
    expect(rules.settle({ keep: true })).toBe('complete');
    expect(rules.settle({ keep: false })).toBe('release');
  });

  it("lets a takeover delete only a claim still pending on the surface's own result column", () => {
    expect(rules.staleRelease('judge')).toEqual({
      kind: 'stale',
      result: 'evaluation',
      olderThanMs: 12_000,
    });
    expect(rules.staleRelease('mcp')).toEqual({
      kind: 'stale',
      result: 'evaluation',
      olderThanMs: 12_000,
    });
    // Inbound keys record their event, never an evaluation: testing evaluation_id would drop done keys.
    expect(rules.staleRelease('inbound')).toEqual({
      kind: 'stale',
      result: 'event',
      olderThanMs: 12_000,
    });
  });

  it("lets the claim's owner delete it whatever its state", () => {
    expect(rules.ownedRelease()).toEqual({ kind: 'owned' });
  });
});
