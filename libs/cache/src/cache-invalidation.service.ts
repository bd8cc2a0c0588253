import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { InvalidatedCache, type InvalidatedCacheOptions } from './invalidated-cache.js';
import { InvalidationAcks } from './invalidation-acks.js';

/** How often the subscription is checked: a connection that went half-open never says so. */
const PING_EVERY_MS = 5_000;

/**
 * How long a write waits for every subscribed process to confirm it dropped the entry. A process
 * that does not answer in time (its event loop blocked, its connection half-open) is left to the
 * caches' lifetime and its own subscription check.
 */
export const ACK_TIMEOUT_MS = 1_000;

interface InvalidationMessage {
  cache: string;
  tag: string;
  /** Answered on the publisher's channel `ackTo` once applied. */
  id?: string;
  ackTo?: string;
}

/**
 * Keeps the in-process read caches of every API and worker process in step over Redis pub/sub:
 * a write drops its entry here, tells the other processes and returns once each of them has
 * acknowledged, so the client's next request, to whichever process, reads the new row. Caches
 * serve entries only while this process is subscribed; when the subscription drops (Redis away),
 * every cache is emptied and bypassed until it is back, since invalidations may have been missed.
 * It owns its two Redis connections: one subscribed, one that publishes invalidations and answers.
 */
@Injectable()
export class CacheInvalidation implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(CacheInvalidation.name);
  private readonly caches = new Map<string, InvalidatedCache<unknown>>();
  private readonly channel: string;
  private readonly ackChannel: string;
  private readonly acks = new InvalidationAcks();
  private readonly subscriber: Redis;
  private readonly publisher: Redis;
  private subscribed = false;
  private pinger?: NodeJS.Timeout;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.channel = `${config.redisPrefix}:cache-invalidation`;
    // Each process's own channel: an acknowledgement reaches only the process that waits for it.
    this.ackChannel = `${this.channel}:acks:${randomUUID()}`;
    this.subscriber = new Redis(config.redisUrl, {
      autoResubscribe: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
      keepAlive: 10_000,
    });
    // Fails fast while Redis is away instead of queueing: the write logs it and the lifetime bounds it.
    this.publisher = new Redis(config.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
    });
  }

  onModuleInit(): void {
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('close', () => this.suspend());
    this.subscriber.on('ready', () => void this.subscribe());
    this.subscriber.on('message', (channel: string, raw: string) => {
      if (channel === this.channel) this.apply(raw);
      else if (channel === this.ackChannel) this.acks.acknowledge(raw);
    });
    this.publisher.on('error', () => undefined);
    this.publisher.connect().catch(() => undefined);
    this.subscriber.connect().catch(() => undefined);
    this.pinger = setInterval(() => void this.checkSubscription(), PING_EVERY_MS).unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.pinger);
    this.acks.cancelAll();
    this.suspend();
    this.subscriber.disconnect();
    this.publisher.disconnect();
    return Promise.resolve();
  }

  /** A cache that this process reads through and every process invalidates by name. */
  register<V>(name: string, options: InvalidatedCacheOptions): InvalidatedCache<V> {
    if (this.caches.has(name)) throw new Error(`cache ${name} is registered twice`);
    const cache = new InvalidatedCache<V>(name, options, () => this.subscribed);
    this.caches.set(name, cache);
    return cache;
  }

  /**
   * After a write has committed: drops the entries tagged `tag` here and in every other process,
   * resolving once every process subscribed at the time has done so (or ACK_TIMEOUT_MS has passed).
   */
  async invalidate(cache: InvalidatedCache<unknown>, tag: string): Promise<void> {
    cache.drop(tag);
    const id = randomUUID();
    const message: InvalidationMessage = { cache: cache.name, tag, id, ackTo: this.ackChannel };
    const acknowledged = this.acks.open(id, ACK_TIMEOUT_MS);
    try {
      const receivers = await this.publisher.publish(this.channel, JSON.stringify(message));
      this.acks.expect(id, receivers);
      if (!(await acknowledged)) {
        this.logger.warn(
          { cache: cache.name, receivers, timeoutMs: ACK_TIMEOUT_MS },
          'cache invalidation not acknowledged by every process in time; the rest drop it by its lifetime',
        );
      }
    } catch (error) {
      this.acks.forget(id);
      // Usually Redis is away for every process, and every cache is bypassed. If only this process
      // lost it, the others keep the entry until HOT_PATH_CACHE's lifetime ends.
      this.logger.error({ err: error, cache: cache.name }, 'cache invalidation not published');
    }
  }

  private async subscribe(): Promise<void> {
    try {
      await this.subscriber.subscribe(this.channel, this.ackChannel);
      for (const cache of this.caches.values()) cache.drop();
      this.subscribed = true;
    } catch (error) {
      this.logger.warn({ err: error }, 'cache invalidation subscription failed');
    }
  }

  /** A ping that does not come back in time means the subscription may be dead: start over. */
  private async checkSubscription(): Promise<void> {
    if (!this.subscribed) return;
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('ping timed out')), PING_EVERY_MS / 2).unref(),
    );
    try {
      await Promise.race([this.subscriber.ping(), timeout]);
    } catch {
      this.suspend();
      this.subscriber.disconnect(true);
    }
  }

  private suspend(): void {
    this.subscribed = false;
    for (const cache of this.caches.values()) cache.drop();
  }

  private apply(raw: string): void {
    try {
      const message = JSON.parse(raw) as InvalidationMessage;
      this.caches.get(message.cache)?.drop(message.tag);
      // Answered even when this process has no such cache: it holds nothing stale either way.
      if (typeof message.id === 'string' && message.ackTo?.startsWith(`${this.channel}:acks:`))
        this.publisher.publish(message.ackTo, message.id).catch(() => undefined);
    } catch {
      this.logger.warn('malformed cache invalidation message ignored');
    }
  }
}
