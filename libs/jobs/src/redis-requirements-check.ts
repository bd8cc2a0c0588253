import { BullRegistrar } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Redis, ReplyError } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { within } from './queues.js';
import { checkRedisRequirements, type RedisAnswers, type RedisRequirements } from './redis-requirements.js';

/** Boot waits at most this long for Redis: the service accepts work while Redis is away. */
const CHECK_TIMEOUT_MS = 2_000;

/** Thrown at boot when Redis cannot be used at all (Cluster mode); the reason was logged already. */
export class RedisRequirementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RedisRequirementError';
    // A refusal, not a bug: its stack would only bury the reason.
    this.stack = `${this.name}: ${message}`;
  }
}

/** `host:port` of a Redis URL, never its credentials. */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * Checks once at boot that Redis suits BullMQ (see checkRedisRequirements) and logs what is wrong;
 * Redis in Cluster mode stops the boot before any BullMQ worker is registered. When Redis does not
 * answer in time, boot goes on (workers included) and the check runs once Redis answers.
 */
@Injectable()
export class RedisRequirementsCheck implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RedisRequirements');
  private readonly address: string;
  private probe?: Redis;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registrar: BullRegistrar,
  ) {
    this.address = redisAddress(config.redisUrl);
  }

  async onModuleInit(): Promise<void> {
    // Its own connection, retrying in the background (ioredis's default) until the check has run.
    const probe = new Redis(this.config.redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: CHECK_TIMEOUT_MS,
    });
    probe.on('error', () => undefined);
    this.probe = probe;
    let requirements: RedisRequirements;
    try {
      requirements = await within(this.ask(probe), CHECK_TIMEOUT_MS);
    } catch (error) {
      this.logger.warn(
        `Redis requirements not checked at boot: Redis at ${this.address} did not answer (${reason(error)}); ` +
          'they will be checked when it does',
      );
      this.retryWhenReady(probe);
      this.registrar.register();
      return;
    }
    this.close();
    const refusal = this.report(requirements);
    if (refusal) throw new RedisRequirementError(refusal);
    this.registrar.register();
  }

  onApplicationShutdown(): void {
    this.close();
  }

  private retryWhenReady(probe: Redis): void {
    const retry = () =>
      void within(this.ask(probe), CHECK_TIMEOUT_MS).then(
        (requirements) => {
          this.close();
          this.report(requirements);
        },
        (error: unknown) => {
          this.logger.warn(
            `Redis requirements not checked: ${reason(error)}; they will be checked on reconnect`,
          );
          probe.once('ready', retry);
        },
      );
    if (probe.status === 'ready') retry();
    else probe.once('ready', retry);
  }

  private async ask(probe: Redis): Promise<RedisRequirements> {
    if (probe.status === 'wait') await probe.connect();
    // A command the server refuses is left out (managed Redis often refuses CONFIG); a lost
    // connection is not a refusal.
    const refused = (error: unknown) => {
      if (error instanceof ReplyError) return undefined;
      throw error;
    };
    const answers: RedisAnswers = {
      info: await probe.info().catch(refused),
      config: await probe.config('GET', 'maxmemory-policy').catch(refused),
    };
    return checkRedisRequirements(answers, this.address);
  }

  /** Logs the findings; returns the first error's message, if any. */
  private report({ findings, version, maxmemoryPolicy }: RedisRequirements): string | undefined {
    for (const { level, message } of findings) {
      if (level === 'error') this.logger.error(message);
      else if (level === 'warn') this.logger.warn(message);
      else this.logger.log(message);
    }
    if (findings.length === 0)
      this.logger.log(
        `Redis at ${this.address} meets BullMQ's requirements (version ${version ?? 'unknown'}, ` +
          `maxmemory-policy ${maxmemoryPolicy}, not in Cluster mode)`,
      );
    return findings.find((finding) => finding.level === 'error')?.message;
  }

  private close(): void {
    this.probe?.disconnect();
    this.probe = undefined;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
