import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository, type SelectQueryBuilder } from 'typeorm';
import {
  countBelowThreshold,
  isUuid,
  selectedProbabilities,
  shareBelowThreshold,
  type EvaluationSource,
  type EvaluationStatus,
} from '@app/domain';
import type { KeysetPosition } from '../cursor.js';
import { EvaluationEntity } from '../entities/evaluation.entity.js';
import { countStoredBelowThreshold, unstoredAnswers } from '../statements/evaluations.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import type { NewEvaluation } from './evaluation-rows.js';

export interface EvaluationFilter {
  packId?: string;
  simulationId?: string;
  status?: EvaluationStatus;
  source?: EvaluationSource;
}

export interface ReviewFilter {
  packId?: string;
  questionId?: string;
  labeled?: boolean;
}

export interface EvaluationPage {
  items: EvaluationEntity[];
  /** Position of the last item when more rows follow, else null. */
  next: KeysetPosition | null;
}

@Injectable()
export class EvaluationRepository {
  private readonly evaluations: Repository<EvaluationEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly inserts: EvaluationInserts,
    private readonly sql: PreparedSql,
  ) {
    this.evaluations = dataSource.getRepository(EvaluationEntity);
  }

  async insert(evaluation: NewEvaluation): Promise<EvaluationEntity> {
    const createdAt = await this.inserts.insert(evaluation);
    if (!createdAt) throw new Error(`evaluation ${evaluation.id} exists already`);
    return {
      ...evaluation,
      simulationId: evaluation.simulationId ?? null,
      datasetTicketId: evaluation.datasetTicketId ?? null,
      inboundEventId: null,
      selectedProbabilities: selectedProbabilities(evaluation.result.answers),
      labeled: false,
      createdAt,
    };
  }

  findById(userId: string, id: string): Promise<EvaluationEntity | null> {
    return isUuid(id) ? this.evaluations.findOneBy({ id, userId }) : Promise.resolve(null);
  }

  /** Newest first, keyset-paginated on (created_at, id) so pages never skip or repeat rows. */
  async list(
    userId: string,
    filter: EvaluationFilter,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<EvaluationPage> {
    if (filter.packId !== undefined && !isUuid(filter.packId)) return { items: [], next: null };
    if (filter.simulationId !== undefined && !isUuid(filter.simulationId)) return { items: [], next: null };
    const query = this.evaluations.createQueryBuilder('e').where('e.user_id = :userId', { userId });
    if (filter.packId) query.andWhere('e.pack_id = :packId', { packId: filter.packId });
    if (filter.simulationId)
      query.andWhere('e.simulation_id = :simulationId', { simulationId: filter.simulationId });
    if (filter.status) query.andWhere('e.status = :status', { status: filter.status });
    if (filter.source) query.andWhere('e.source = :source', { source: filter.source });
    return this.page(query, after, limit);
  }

  /** The review queue: evaluations in `review`, newest first, on the partial review indexes. */
  async listReviews(
    userId: string,
    filter: ReviewFilter,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<EvaluationPage> {
    if (filter.packId !== undefined && !isUuid(filter.packId)) return { items: [], next: null };
    const query = this.evaluations
      .createQueryBuilder('e')
      .where('e.user_id = :userId', { userId })
      .andWhere(`e.status = 'review'`);
    if (filter.packId) query.andWhere('e.pack_id = :packId', { packId: filter.packId });
    if (filter.questionId !== undefined)
      query.andWhere(`e.result -> 'answers' ? :questionId`, { questionId: filter.questionId });
    if (filter.labeled !== undefined) query.andWhere('e.labeled = :labeled', { labeled: filter.labeled });
    return this.page(query, after, limit);
  }

  /**
   * Of this version's evaluations that answered the question, the share whose selected probability
   * is below `threshold`; null without such evaluations. Selected probabilities are stored at write
   * time by the domain rule (computing them here from every answer was too slow for the calibration
   * route); rows written before they were stored get theirs from the same rule, in TypeScript.
   */
  async shareBelowThreshold(
    userId: string,
    packVersionId: string,
    questionId: string,
    threshold: number,
  ): Promise<number | null> {
    const version = { userId, packVersionId, questionId };
    const [stored, unstored] = await Promise.all([
      this.sql.first(countStoredBelowThreshold, { ...version, threshold }),
      this.sql.rows(unstoredAnswers, version),
    ]);
    const answers = unstored.map((row) => row.answer);
    return shareBelowThreshold(stored ?? { answered: 0, below: 0 }, countBelowThreshold(answers, threshold));
  }

  private async page(
    query: SelectQueryBuilder<EvaluationEntity>,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<EvaluationPage> {
    if (after) {
      query.andWhere('(e.created_at, e.id) < (:afterAt::timestamptz, :afterId::uuid)', {
        afterAt: after.createdAt,
        afterId: after.id,
      });
    }
    const { entities, raw } = await query
      .addSelect('e.created_at::text', 'created_at_text')
      .orderBy('e.created_at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .limit(limit + 1)
      .getRawAndEntities<{ created_at_text: string }>();
    const items = entities.slice(0, limit);
    const last = items.at(-1);
    const next =
      entities.length > limit && last
        ? { createdAt: raw[items.length - 1].created_at_text, id: last.id }
        : null;
    return { items, next };
  }
}
