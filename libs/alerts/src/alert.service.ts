import { Injectable } from '@nestjs/common';
import { NotFoundError, withDefaultRules, type AlertRuleSettings, type AlertStatus } from '@app/domain';
import { AlertRepository, PackRepository } from '@app/persistence';
import { toAlertView, type AlertView } from './alert.views.js';

/** The most alerts one list answers (open ones first). */
export const ALERTS_PAGE_SIZE = 200;

/** The API side of quality alerts: the rule settings of a pack, the alert list and acknowledgements. */
@Injectable()
export class AlertService {
  constructor(
    private readonly packs: PackRepository,
    private readonly alerts: AlertRepository,
  ) {}

  async rules(userId: string, packId: string): Promise<AlertRuleSettings> {
    await this.pack(userId, packId);
    return withDefaultRules(await this.alerts.findRules(userId, packId));
  }

  /** Replaces the pack's settings (every rule, every field: the DTO requires them). */
  async setRules(userId: string, packId: string, rules: AlertRuleSettings): Promise<AlertRuleSettings> {
    await this.pack(userId, packId);
    await this.alerts.saveRules(userId, packId, rules);
    return rules;
  }

  async list(userId: string, filter: { packId?: string; status?: AlertStatus }): Promise<AlertView[]> {
    if (filter.packId) await this.pack(userId, filter.packId);
    const rows = await this.alerts.list(userId, filter, ALERTS_PAGE_SIZE);
    return rows.map(toAlertView);
  }

  /** Acknowledges an open alert; an acknowledged or closed one is answered as it is. */
  async acknowledge(userId: string, id: string): Promise<AlertView> {
    const row = await this.alerts.acknowledge(userId, id);
    if (!row) throw new NotFoundError('alert not found');
    return toAlertView(row);
  }

  private async pack(userId: string, packId: string): Promise<void> {
    if (!(await this.packs.find(userId, packId))) throw new NotFoundError('pack not found');
  }
}
