import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ConfigModule, type AppConfig } from '@app/config';
import { JobsModule } from '@app/jobs';
import { Metrics, MetricsModule } from '@app/metrics';
import { ConfiguredWorkerHost, configuredProcessor } from './configured-worker-host.js';

const QUEUE = 'configured-host-spec';
const config = {
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  redisPrefix: `${process.env.REDIS_PREFIX ?? 'tjtest'}-configured-host-${process.pid}`,
  workerConcurrency: 3,
  workerLockMs: 3000,
  workerName: 'configured-host-spec',
  telemetry: {},
} as AppConfig;

let release: () => void = () => undefined;
let started: (job: Job) => void = () => undefined;

@Injectable()
class HeldProcessor extends ConfiguredWorkerHost {
  constructor(protected readonly metrics: Metrics) {
    super();
  }

  process(job: Job): Promise<void> {
    started(job);
    return new Promise((resolve) => (release = resolve));
  }
}

/**
 * The Worker @nestjs/bullmq builds for a configured processor takes the configured options when it
 * is built (no option set afterwards), and its locks last and are renewed for WORKER_LOCK_MS.
 */
describe('ConfiguredWorkerHost', () => {
  let app: INestApplicationContext;
  let queue: Queue;
  let redis: Redis;

  beforeAll(async () => {
    app = await NestFactory.createApplicationContext(
      {
        module: class ConfiguredHostSpecModule {},
        imports: [ConfigModule.forRoot(config), JobsModule.forRoot(config), MetricsModule],
        providers: [configuredProcessor(HeldProcessor, QUEUE, config)],
      },
      { logger: false, abortOnError: false },
    );
    queue = new Queue(QUEUE, { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
    redis = new Redis(config.redisUrl);
  });
  afterAll(async () => {
    release();
    await app?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
    redis?.disconnect();
  });

  it('builds the Worker with the configured options and runs it once the application is up', () => {
    const { worker } = app.get(HeldProcessor);
    expect(worker.opts).toMatchObject({
      autorun: false,
      concurrency: 3,
      lockDuration: 3000,
      lockRenewTime: 1500,
      name: 'configured-host-spec',
      stalledInterval: 1000,
      maxStalledCount: 5,
      prefix: config.redisPrefix,
    });
    expect(worker.concurrency).toBe(3);
    expect(worker.isRunning()).toBe(true);
  });

  it('holds a running job’s lock for WORKER_LOCK_MS and renews it for as long', async () => {
    const job = new Promise<Job>((resolve) => (started = resolve));
    await queue.add('held', {});
    const { id } = await job;
    const lockKey = `${config.redisPrefix}:${QUEUE}:${id}:lock`;
    const first = await redis.pttl(lockKey);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(3000);
    // Past one renewal (every 1.5 s): the lock was extended by 3 s, not BullMQ's default 30 s.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const renewed = await redis.pttl(lockKey);
    expect(renewed).toBeGreaterThan(1000);
    expect(renewed).toBeLessThanOrEqual(3000);
    release();
  });
});
