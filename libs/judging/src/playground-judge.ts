import { Injectable } from '@nestjs/common';
import { NotFoundError, type Ticket } from '@app/domain';
import { PackRepository, PackVersionLookup, type EvaluationEntity } from '@app/persistence';
import { JudgeService } from './judge.service.js';

/** The web app's playground judging: any version of the user's pack, stored as `playground`. */
@Injectable()
export class PlaygroundJudge {
  constructor(
    private readonly packs: PackRepository,
    private readonly versions: PackVersionLookup,
    private readonly judging: JudgeService,
  ) {}

  /**
   * Judges against any version of the pack, the draft included (so a draft can be tried before it
   * is published), or the live version when none is given. No idempotency: every click is a new
   * evaluation with `source: "playground"`.
   */
  async judge(
    userId: string,
    packId: string,
    ticket: Ticket,
    packVersionId?: string,
  ): Promise<EvaluationEntity> {
    if (packVersionId === undefined) return this.judging.judgeLive(userId, packId, ticket, 'playground');
    // The pack first: versions outlive a deleted pack (for its evaluations), judging does not.
    if (!(await this.packs.find(userId, packId))) throw new NotFoundError('pack not found');
    const version = await this.versions.find(userId, packVersionId);
    if (!version || version.packId !== packId) throw new NotFoundError('version not found');
    return this.judging.judgeVersion({
      userId,
      packId,
      packVersionId: version.id,
      document: version.document,
      ticket,
      source: 'playground',
    });
  }
}
