import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  ALERT_EXAMPLES,
  alertWindows,
  checkPackQuality,
  withDefaultRules,
  type AlertFinding,
} from '@app/domain';
import { AlertRepository, type CheckedPackRow, type CheckWindows } from '@app/persistence';
import { WebhookQueue } from '@app/webhooks';
import type { AlertView } from './alert.views.js';

export interface AlertCheckResult {
  packs: number;
  opened: number;
  closed: number;
}

/**
 * The worker's check of every pack's alert rules (docs/alerts.md): opens an alert, and its signed
 * delivery, for a condition that starts to hold; refreshes the figures of one that still holds
 * without sending it again; closes those whose condition cleared. Safe to run twice.
 */
@Injectable()
export class AlertMonitor {
  private readonly logger = new Logger(AlertMonitor.name);

  constructor(
    private readonly alerts: AlertRepository,
    private readonly queue: WebhookQueue,
  ) {}

  async run(now = new Date()): Promise<AlertCheckResult> {
    const windows = alertWindows(now);
    const packs = await this.alerts.packsToCheck(windows.baselineSince);
    const result = { packs: packs.length, opened: 0, closed: 0 };
    let failed = 0;
    for (const pack of packs) {
      // One pack's failure does not hold back the others' alerts; the job still fails, and its retry
      // checks every pack again (which opens and sends nothing twice).
      try {
        const { opened, closed } = await this.checkPack(pack, windows, now);
        result.opened += opened;
        result.closed += closed;
      } catch (error) {
        failed++;
        this.logger.warn({ err: error, packId: pack.id }, 'quality alert check of a pack failed');
      }
    }
    if (failed) throw new Error(`the alert check failed on ${failed} of ${packs.length} packs`);
    return result;
  }

  private async checkPack(
    pack: CheckedPackRow,
    windows: CheckWindows,
    now: Date,
  ): Promise<{ opened: number; closed: number }> {
    const findings = checkPackQuality(await this.alerts.counts(pack, windows), withDefaultRules(pack.rules));
    let opened = 0;
    for (const finding of findings) {
      if (await this.raise(pack, finding, windows, now)) opened++;
    }
    const closed = await this.alerts.closeCleared(pack.userId, pack.id, findings);
    return { opened, closed };
  }

  /** Opens the finding's alert unless one is open already (then its figures are refreshed); whether it opened. */
  private async raise(
    pack: CheckedPackRow,
    finding: AlertFinding,
    windows: CheckWindows,
    now: Date,
  ): Promise<boolean> {
    const since = finding.rule === 'gateway_failure_rate' ? windows.gatewaySince : windows.recentSince;
    const exampleEvaluationIds = await this.alerts.examples(pack, finding.examples, since, ALERT_EXAMPLES);
    const fields = {
      packId: pack.id,
      rule: finding.rule,
      questionId: finding.questionId,
      summary: finding.summary,
      figures: finding.figures,
      exampleEvaluationIds,
    };
    if (await this.alerts.refresh(pack.userId, fields)) return false;
    const alert: AlertView = {
      id: randomUUID(),
      ...fields,
      status: 'open',
      since: since.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      acknowledgedAt: null,
      closedAt: null,
    };
    const opened = await this.alerts.open({
      ...fields,
      id: alert.id,
      userId: pack.userId,
      since,
      createdAt: now,
      deliveryId: randomUUID(),
      payload: { type: 'quality.alert', alert },
    });
    if (!opened) return false;
    this.logger.log(
      { alertId: opened.id, packId: pack.id, rule: finding.rule, questionId: finding.questionId },
      'quality alert opened',
    );
    // Redis away: the delivery row is pending already, and the sweeper sends it.
    if (opened.deliveryId) await this.queue.deliverSoon(opened.deliveryId);
    return true;
  }
}
