import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CacheInvalidation, type InvalidatedCache } from '@app/cache';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity.js';
import { HOT_PATH_CACHE } from './hot-path-cache.js';

export interface WebhookEndpointRow {
  id: string;
  userId: string;
  url: string;
  secret: string;
  requireInboundSignature: boolean;
}

function toEndpoint({
  id,
  userId,
  url,
  secret,
  requireInboundSignature,
}: WebhookEndpointEntity): WebhookEndpointRow {
  return { id, userId, url, secret, requireInboundSignature };
}

/**
 * Each user's completion endpoint (or its absence, kept too) by user id, read by every inbound
 * request. WebhookRepository invalidates it in the same method as every write that saves, replaces
 * (a new secret) or deletes the endpoint.
 */
@Injectable()
export class EndpointLookup {
  private readonly cache: InvalidatedCache<WebhookEndpointRow | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.cache = invalidation.register('webhook-endpoints', HOT_PATH_CACHE);
  }

  find(userId: string): Promise<WebhookEndpointRow | null> {
    return this.cache.get(userId, () => this.findFresh(userId));
  }

  /**
   * Past the cache, for what must never act on a stale "no endpoint" or an old secret: the endpoint
   * test (a delivery attempt reads its endpoint in the statement that claims it).
   */
  async findFresh(userId: string): Promise<WebhookEndpointRow | null> {
    const endpoint = await this.dataSource.getRepository(WebhookEndpointEntity).findOneBy({ userId });
    return endpoint ? toEndpoint(endpoint) : null;
  }

  /** After a write to the user's endpoint committed: drops it in every process. */
  invalidate(userId: string): Promise<void> {
    return this.invalidation.invalidate(this.cache, userId);
  }
}
