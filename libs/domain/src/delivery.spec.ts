import { describe, expect, it } from '@jest/globals';
import {
  canRedeliver,
  nextAttemptAfter,
  planAttempt,
  retryAfterClaimRefused,
  recordOfAttempt,
  statusAfterAttempt,
} from './delivery.js';

describe('planAttempt', () => {
  it('counts the first round from the job while the row agrees', () => {
    expect(planAttempt({ attempts: 0, round: 0 }, 0, 3)).toEqual({ roundAttempts: 0, final: false });
    expect(planAttempt({ attempts: 1, round: 0 }, 1, 3)).toEqual({ roundAttempts: 1, final: false });
    expect(planAttempt({ attempts: 2, round: 0 }, 2, 3)).toEqual({ roundAttempts: 2, final: true });
  });

  it('counts from the row when the job was recreated and starts again at 0', () => {
    expect(planAttempt({ attempts: 2, round: 0 }, 0, 3)).toEqual({ roundAttempts: 2, final: true });
  });

  it("counts a redelivery's round from its start (round = attempts + 1 when it began)", () => {
    // Three attempts failed, then a redelivery: round 4, nothing sent in it yet.
    expect(planAttempt({ attempts: 3, round: 4 }, 0, 3)).toEqual({ roundAttempts: 0, final: false });
    expect(planAttempt({ attempts: 5, round: 4 }, 0, 3)).toEqual({ roundAttempts: 2, final: true });
  });

  it('makes a single-attempt budget final at once', () => {
    expect(planAttempt({ attempts: 0, round: 0 }, 0, 1).final).toBe(true);
  });
});

describe('statusAfterAttempt', () => {
  it('succeeds on any success, fails only on the last attempt, otherwise stays pending', () => {
    expect(statusAfterAttempt(true, false)).toBe('succeeded');
    expect(statusAfterAttempt(true, true)).toBe('succeeded');
    expect(statusAfterAttempt(false, true)).toBe('failed');
    expect(statusAfterAttempt(false, false)).toBe('pending');
  });
});

describe('nextAttemptAfter', () => {
  it('doubles the wait with each attempt of the round', () => {
    const now = new Date('2026-11-25T12:00:00.000Z');
    expect(nextAttemptAfter(now, 1000, 0).toISOString()).toBe('2026-11-25T12:00:01.000Z');
    expect(nextAttemptAfter(now, 1000, 3).toISOString()).toBe('2026-11-25T12:00:08.000Z');
  });
});

describe('canRedeliver', () => {
  it('refuses a pending delivery and allows a finished one', () => {
    expect(canRedeliver('pending')).toBe(false);
    expect(canRedeliver('failed')).toBe(true);
    expect(canRedeliver('succeeded')).toBe(true);
  });
});

describe('retryAfterClaimRefused', () => {
  it('waits out the claim another attempt holds, and a little more', () => {
    expect(retryAfterClaimRefused({ status: 'pending', claimRemainingMs: 1200.4 })).toBe(1451);
  });

  it('retries soon when the claim lapsed between the claim and the look', () => {
    expect(retryAfterClaimRefused({ status: 'pending', claimRemainingMs: 0 })).toBe(250);
  });

  it('ends the run when there is nothing left to send', () => {
    expect(retryAfterClaimRefused(null)).toBeNull();
    expect(retryAfterClaimRefused({ status: 'succeeded', claimRemainingMs: 0 })).toBeNull();
    expect(retryAfterClaimRefused({ status: 'failed', claimRemainingMs: 900 })).toBeNull();
  });
});

describe('recordOfAttempt', () => {
  const next = new Date('2030-01-01T00:00:00Z');
  const outcome = { statusCode: 500, error: 'HTTP 500', nextAttemptAt: next };

  it('keeps the next attempt only while the delivery stays pending', () => {
    expect(recordOfAttempt({ ...outcome, ok: false, final: false })).toEqual({
      status: 'pending',
      statusCode: 500,
      error: 'HTTP 500',
      nextAttemptAt: next,
    });
    expect(recordOfAttempt({ ...outcome, ok: false, final: true }).nextAttemptAt).toBeNull();
    expect(recordOfAttempt({ ...outcome, ok: true, final: false })).toMatchObject({
      status: 'succeeded',
      nextAttemptAt: null,
    });
  });
});
