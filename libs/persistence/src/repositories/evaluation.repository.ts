import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import { isUuid, type EvaluationSource, type EvaluationStatus } from '@app/domain';
import type { KeysetPosition } from '../cursor.js';
import { EvaluationEntity } from '../entities/evaluation.entity.js';

export type NewEvaluation = Omit<EvaluationEntity, 'createdAt'>;

export interface EvaluationFilter {
  packId?: string;
  status?: EvaluationStatus;
  source?: EvaluationSource;
}

export interface EvaluationPage {
  items: EvaluationEntity[];
  /** Position of the last item when more rows follow, else null. */
  next: KeysetPosition | null;
}

@Injectable()
export class EvaluationRepository {
  private readonly evaluations: Repository<EvaluationEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.evaluations = dataSource.getRepository(EvaluationEntity);
  }

  async insert(evaluation: NewEvaluation): Promise<EvaluationEntity> {
    const rows = await this.evaluations
      .createQueryBuilder()
      .insert()
      .values(evaluation)
      .returning('created_at')
      .execute();
    return { ...evaluation, createdAt: (rows.raw as Array<{ created_at: Date }>)[0].created_at };
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
    const query = this.evaluations
      .createQueryBuilder('e')
      .addSelect('e.created_at::text', 'created_at_text')
      .where('e.user_id = :userId', { userId });
    if (filter.packId) query.andWhere('e.pack_id = :packId', { packId: filter.packId });
    if (filter.status) query.andWhere('e.status = :status', { status: filter.status });
    if (filter.source) query.andWhere('e.source = :source', { source: filter.source });
    if (after)
      query.andWhere('(e.created_at, e.id) < (:afterAt::timestamptz, :afterId::uuid)', {
        afterAt: after.createdAt,
        afterId: after.id,
      });
    const { entities, raw } = await query
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
