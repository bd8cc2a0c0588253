import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '@app/domain';
import { meanAuditUncertainty } from '../statements/evaluations.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

/** The decisions ū is the mean over: enough for a stable mean, few enough for one cheap read. */
export const AUDIT_BASELINE_DECISIONS = 1_000;

/** How long a pack's ū is kept: it drifts slowly, and a stale one only shifts π a little. */
export const AUDIT_BASELINE_TTL_MS = 5 * 60_000;

/** While a pack's ū is unknown (no drawn decisions yet), it is read again sooner. */
export const AUDIT_BASELINE_UNKNOWN_TTL_MS = 30_000;

const MAX_ENTRIES = 10_000;

interface Entry {
  value: Promise<number | null>;
  expiresAt: number;
}

/**
 * The uncertainty strategy's ū per pack (docs/reviews.md, "Audit sampling"): one bounded query per
 * pack every few minutes in each process, shared by the draws that need it meanwhile; never read
 * for a pack whose audit is off or uniform. Null until the pack has drawn automatic decisions, and
 * on a failed read, which is not kept (the draw then falls back to π = rate rather than failing the
 * judgment).
 */
@Injectable()
export class AuditBaselineCache {
  private readonly logger = new Logger(AuditBaselineCache.name);
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly sql: PreparedSql) {}

  meanUncertainty(userId: string, packId: string): Promise<number | null> {
    if (!isUuid(packId)) return Promise.resolve(null);
    const key = `${userId}:${packId}`;
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const value = this.load(userId, packId, key);
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, expiresAt: now + AUDIT_BASELINE_TTL_MS });
    return value;
  }

  private async load(userId: string, packId: string, key: string): Promise<number | null> {
    try {
      const params = { userId, packId, limit: AUDIT_BASELINE_DECISIONS };
      const row = await this.sql.first(meanAuditUncertainty, params);
      const mean = row?.meanUncertainty ?? null;
      const entry = this.entries.get(key);
      if (mean === null && entry)
        entry.expiresAt = Math.min(entry.expiresAt, Date.now() + AUDIT_BASELINE_UNKNOWN_TTL_MS);
      return mean;
    } catch (error) {
      this.entries.delete(key);
      this.logger.warn({ err: error, packId }, 'audit baseline not read; drawing with π = rate');
      return null;
    }
  }
}
