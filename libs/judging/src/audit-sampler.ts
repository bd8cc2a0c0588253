import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  auditUncertainty,
  drawAudit,
  isAuditedSource,
  seededRandom,
  type AuditDraw,
  type AuditSettings,
  type Calibrate,
  type EvaluationSource,
} from '@app/domain';
import { AuditBaselineCache } from '@app/persistence';

/** What the draw reads of an evaluation about to be stored. */
export interface AuditCandidate {
  userId: string;
  packId: string;
  source: EvaluationSource;
  selectedProbabilities: Record<string, number>;
  /** The model gave no answers (a failed judgment): wholly uncertain. */
  failed: boolean;
}

/**
 * Draws live evaluations for audit as they are stored (docs/reviews.md, "Audit sampling"). With the
 * audit off (rate 0), or for the playground and simulations, it returns at once, reading nothing;
 * the uncertainty strategy reads the pack's ū from its cache. AUDIT_SEED makes the random numbers
 * a fixed sequence, for tests.
 */
@Injectable()
export class AuditSampler {
  private readonly random: () => number;

  constructor(
    private readonly baselines: AuditBaselineCache,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.random = config.auditSeed === undefined ? Math.random : seededRandom(config.auditSeed);
  }

  /**
   * π, the outcome and u, or null when nothing is drawn (not live traffic, or the audit off).
   * `calibrate`: the version's calibration maps, which u takes where a question has one.
   */
  async draw(
    candidate: AuditCandidate,
    settings: AuditSettings | null,
    calibrate?: Calibrate,
  ): Promise<AuditDraw | null> {
    if (!settings || !(settings.rate > 0) || !isAuditedSource(candidate.source)) return null;
    const mean =
      settings.strategy === 'uncertainty'
        ? await this.baselines.meanUncertainty(candidate.userId, candidate.packId)
        : null;
    const uncertainty = auditUncertainty(candidate.selectedProbabilities, candidate.failed, calibrate);
    return drawAudit(settings, uncertainty, mean, this.random());
  }
}
