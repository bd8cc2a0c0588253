import { Inject, Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  claimAsFound,
  ConflictError,
  IDEMPOTENCY_TTL_HOURS,
  idempotencyResultKind,
  IdempotencyRules,
  type IdempotencySurface,
} from '@app/domain';
import { IdempotencyKeyRepository } from './idempotency-key.repository.js';

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
 * timeout is taken over, so a crashed request cannot block its key for a day. The rules are the
 * domain's (`IdempotencyRules`, `claimAsFound`, `IDEMPOTENCY_TTL_HOURS` in libs/domain/src/idempotency.ts);
 * this runs them against the key table through `IdempotencyKeyRepository`, beside it.
 */
@Injectable()
export class IdempotencyService {
  private readonly rules: IdempotencyRules;

  constructor(
    private readonly keys: IdempotencyKeyRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.rules = IdempotencyRules.forModelTimeout(config.modelGateway.timeoutMs);
  }

  async run(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    work: () => Promise<IdempotentWork>,
  ): Promise<{ resultId: string; replayed: boolean }> {
    const startedAt = Date.now();
    for (;;) {
      const claim = await this.keys.claim(userId, surface, key, IDEMPOTENCY_TTL_HOURS);
      if (claim.claimed)
        return { resultId: await this.runClaimed(userId, surface, key, work), replayed: false };
      const verdict = this.rules.onClaimed(claimAsFound(surface, claim.stored), Date.now() - startedAt);
      switch (verdict.action) {
        case 'replay':
          return { resultId: verdict.resultId, replayed: true };
        case 'take_over':
          await this.keys.release(userId, surface, key, this.rules.staleRelease(surface));
          break;
        case 'conflict':
          throw new ConflictError('request in progress');
        case 'wait':
          await sleep(POLL_MS);
      }
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
      await this.keys.release(userId, surface, key, this.rules.ownedRelease());
      throw error;
    }
    if (this.rules.settle(outcome) === 'complete')
      await this.keys.complete(userId, surface, key, {
        kind: idempotencyResultKind(surface),
        id: outcome.resultId,
      });
    else await this.keys.release(userId, surface, key, this.rules.ownedRelease());
    return outcome.resultId;
  }
}
