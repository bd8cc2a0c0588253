import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '@app/domain';
import { PackVersionEntity } from '../entities/pack-version.entity.js';

/** Enough for the versions a worker judges with at once. */
const MAX_PUBLISHED = 500;

/**
 * Pack versions by id, also of a deleted pack: versions live as long as their evaluations. Published
 * versions (and drafts frozen for shadow runs) never change and are never deleted, so the few a process judges with stay in memory
 * with nothing to invalidate; a draft is always read afresh.
 */
@Injectable()
export class PackVersionLookup {
  private readonly published = new Map<string, PackVersionEntity>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async find(userId: string, versionId: string): Promise<PackVersionEntity | null> {
    if (!isUuid(versionId)) return null;
    const cached = this.published.get(versionId);
    if (cached) return cached.userId === userId ? cached : null;
    const version = await this.dataSource
      .getRepository(PackVersionEntity)
      .findOneBy({ id: versionId, userId });
    if (version?.publishedAt || version?.frozenAt) {
      if (this.published.size >= MAX_PUBLISHED) this.published.delete(this.published.keys().next().value!);
      this.published.set(versionId, version);
    }
    return version;
  }
}
