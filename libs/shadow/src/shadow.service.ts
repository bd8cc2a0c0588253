import { Injectable, Logger } from '@nestjs/common';
import { ConflictError, DEFAULT_SHADOW_SAMPLE_RATE, NotFoundError } from '@app/domain';
import { PackRepository, ShadowRepository } from '@app/persistence';
import { shadowReport, toShadowRunView, type ShadowRunDetail, type ShadowRunView } from './shadow-report.js';

export interface StartShadowRunInput {
  /** A version of the pack; absent (or the draft's id): the draft, frozen now into its own version. */
  versionId?: string;
  sampleRate?: number;
  maxJudgments?: number;
}

/** The API side of shadow runs: checks and records them; the worker samples and judges. */
@Injectable()
export class ShadowService {
  private readonly logger = new Logger(ShadowService.name);

  constructor(
    private readonly shadows: ShadowRepository,
    private readonly packs: PackRepository,
  ) {}

  /**
   * `pack not found` or `version not found` (404); `shadow run already active` (409) while the pack
   * has one. The draft is frozen in the run's transaction, so a later edit never reaches the run.
   */
  async start(userId: string, packId: string, input: StartShadowRunInput): Promise<ShadowRunView> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    let versionId: string | null = null;
    if (input.versionId !== undefined && input.versionId !== pack.draftVersionId) {
      const version = await this.packs.findVersion(userId, pack.id, input.versionId);
      if (!version) throw new NotFoundError('version not found');
      versionId = version.id;
    }
    const run = await this.shadows.create({
      userId,
      packId: pack.id,
      versionId,
      draftVersionId: pack.draftVersionId,
      sampleRate: input.sampleRate ?? DEFAULT_SHADOW_SAMPLE_RATE,
      maxJudgments: input.maxJudgments ?? null,
    });
    if (run === 'active') throw new ConflictError('shadow run already active');
    if (!run) throw new NotFoundError('pack not found');
    this.logger.log({ runId: run.id, packId, versionId: run.versionId }, 'shadow run started');
    return toShadowRunView(run);
  }

  /** The pack's runs, newest first; `pack not found` for another user's. */
  async list(userId: string, packId: string): Promise<ShadowRunView[]> {
    if (!(await this.packs.find(userId, packId))) throw new NotFoundError('pack not found');
    return (await this.shadows.list(userId, packId)).map(toShadowRunView);
  }

  async get(userId: string, id: string): Promise<ShadowRunDetail> {
    const run = await this.shadows.find(userId, id);
    if (!run) throw new NotFoundError('shadow run not found');
    return { ...toShadowRunView(run), report: shadowReport(await this.shadows.report(userId, run.id)) };
  }

  /** Stops an active run; a stopped one is answered as it is (stopping is idempotent). */
  async stop(userId: string, id: string): Promise<ShadowRunDetail> {
    const run = await this.shadows.find(userId, id);
    if (!run) throw new NotFoundError('shadow run not found');
    if (await this.shadows.stop(userId, run.id, 'requested'))
      this.logger.log({ runId: id }, 'shadow run stopped');
    return this.get(userId, id);
  }
}
