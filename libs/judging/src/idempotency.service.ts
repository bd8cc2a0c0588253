import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ConflictError } from '@app/domain';
import { IdempotencyKeyRepository, type IdempotencySurface } from '@app/persistence';

export const IDEMPOTENCY_TTL_HOURS = 24;
const POLL_MS = 25;

export interface IdempotentWork {
  /** The evaluation (judge) or event (inbound) the key stands for. */
  resultId: string;
  /** False for results that must stay retryable (gateway_auth, gateway_unavailable): the key is given up. */
  keep: boolean;
}

/**
 * Runs work at most once per (user, surface, key). A request that finds the key already done gets
 * the stored result id; one that finds it in progress waits for the first request and then
 * returns its result (or runs itself if the first gave the key up). A claim older than the model
 * timeout is taken over, so a crashed request cannot block its key for a day.
 */
@Injectable()
export class IdempotencyService {
  private readonly staleAfterMs: number;

  constructor(
    private readonly keys: IdempotencyKeyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.staleAfterMs = config.modelGateway.timeoutMs + 10_000;
  }

  async run(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    work: () => Promise<IdempotentWork>,
  ): Promise<{ resultId: string; replayed: boolean }> {
    const deadline = Date.now() + this.staleAfterMs + 5_000;
    for (;;) {
      const claim = await this.keys.claim(userId, surface, key, IDEMPOTENCY_TTL_HOURS);
      if (claim.claimed)
        return { resultId: await this.runClaimed(userId, surface, key, work), replayed: false };
      if (claim.resultId) return { resultId: claim.resultId, replayed: true };
      if (claim.ageMs > this.staleAfterMs) await this.keys.release(userId, surface, key, this.staleAfterMs);
      else if (Date.now() > deadline) throw new ConflictError('request in progress');
      else await sleep(POLL_MS);
    }
  }

  private async runClaimed(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    work: () => Promise<IdempotentWork>,
  ): Promise<string> {
    let outcome: IdempotentWork;
    try {
      outcome = await work();
    } catch (error) {
      await this.keys.release(userId, surface, key);
      throw error;
    }
    if (outcome.keep) await this.keys.complete(userId, surface, key, outcome.resultId);
    else await this.keys.release(userId, surface, key);
    return outcome.resultId;
  }
}
