/** The routes that take an Idempotency-Key; each keeps its own keys, so one string never collides. */
export type IdempotencySurface = 'judge' | 'mcp' | 'inbound';

/** What a key stands for once done: an evaluation (judge, MCP), or an inbound event. */
export type IdempotencyResultKind = 'evaluation' | 'event';

const RESULT_KIND: Record<IdempotencySurface, IdempotencyResultKind> = {
  judge: 'evaluation',
  mcp: 'evaluation',
  inbound: 'event',
};

/** How long a key is kept: the same key within a day replays, after it runs again. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/** A claim of the key as another request finds it: its result (null while pending) and its age. */
export interface IdempotencyClaim {
  resultId: string | null;
  ageMs: number;
}

/** A claim as the key table holds it: a result of each kind (at most the surface's own is set) and its age. */
export interface StoredClaim {
  results: Record<IdempotencyResultKind, string | null>;
  ageMs: number;
}

/**
 * What a request that found its key claimed does next: return the stored result, take a stale
 * claim over (release it, then claim again), wait for the first request, or give up with 409.
 */
export type ClaimVerdict =
  | { action: 'replay'; resultId: string }
  | { action: 'take_over' }
  | { action: 'wait' }
  | { action: 'conflict' };

/**
 * Which claim a release may delete: the owner's own (whatever its state), or only a claim still
 * pending (no result of its surface's kind yet) and older than `olderThanMs`, which a takeover may drop.
 */
export type ClaimRelease =
  { kind: 'owned' } | { kind: 'stale'; result: IdempotencyResultKind; olderThanMs: number };

/** What the claim's owner does with its work's outcome: store the result, or give the key up. */
export type ClaimSettlement = 'complete' | 'release';

/** A claim older than the model timeout plus this is taken over: its request has crashed. */
const STALE_MARGIN_MS = 10_000;
/** How much longer than the stale window a request waits for another's claim before a 409. */
const WAIT_MARGIN_MS = 5_000;

export function idempotencyResultKind(surface: IdempotencySurface): IdempotencyResultKind {
  return RESULT_KIND[surface];
}

/**
 * The claim a request found on its surface: done only once it has a result of the surface's own kind
 * (an inbound key is done by its event, never by an evaluation). A claim released between the
 * request's insert and its read (`null`) is found as a fresh pending one, so the request claims again.
 */
export function claimAsFound(surface: IdempotencySurface, stored: StoredClaim | null): IdempotencyClaim {
  if (!stored) return { resultId: null, ageMs: 0 };
  return { resultId: stored.results[idempotencyResultKind(surface)], ageMs: stored.ageMs };
}

/** The rules of an idempotency claim (at most one run per user, surface and key), the same on every surface. */
export class IdempotencyRules {
  constructor(readonly staleAfterMs: number) {}

  /** A claim is stale once it has been pending longer than any call it covers can take. */
  static forModelTimeout(modelTimeoutMs: number): IdempotencyRules {
    return new IdempotencyRules(modelTimeoutMs + STALE_MARGIN_MS);
  }

  /** How long a request waits for another's pending claim before answering 409. */
  get waitLimitMs(): number {
    return this.staleAfterMs + WAIT_MARGIN_MS;
  }

  isStale(claim: IdempotencyClaim): boolean {
    return claim.resultId === null && claim.ageMs > this.staleAfterMs;
  }

  /** The next step for a request that has waited `waitedMs` and found the key claimed. */
  onClaimed(claim: IdempotencyClaim, waitedMs: number): ClaimVerdict {
    if (claim.resultId !== null) return { action: 'replay', resultId: claim.resultId };
    if (this.isStale(claim)) return { action: 'take_over' };
    if (waitedMs > this.waitLimitMs) return { action: 'conflict' };
    return { action: 'wait' };
  }

  /** Results that must stay retryable are not kept: the key is given up, so the same key runs again. */
  settle(outcome: { keep: boolean }): ClaimSettlement {
    return outcome.keep ? 'complete' : 'release';
  }

  /** The owner gives its claim up (its call failed, or its result must stay retryable). */
  ownedRelease(): ClaimRelease {
    return { kind: 'owned' };
  }

  /** A takeover drops the claim only if it still has no result of the surface's own kind. */
  staleRelease(surface: IdempotencySurface): ClaimRelease {
    return { kind: 'stale', result: idempotencyResultKind(surface), olderThanMs: this.staleAfterMs };
  }
}
