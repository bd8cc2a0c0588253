import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { RedisClient } from './redis.provider.js';

export interface Readiness {
  ready: boolean;
  checks: Record<string, 'up' | 'down'>;
}

const CHECK_TIMEOUT_MS = 1500;

/** Whether this process can serve: Postgres and Redis both answer a ping in time. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    private readonly redis: RedisClient,
  ) {}

  async check(): Promise<Readiness> {
    try {
      const result = await this.health.check([
        () => this.database.pingCheck('database').withTimeout(CHECK_TIMEOUT_MS),
        () =>
          this.indicators
            .check('redis')
            .attempt(async () => {
              await this.redis.ping();
            })
            .withTimeout(CHECK_TIMEOUT_MS),
      ]);
      return { ready: true, checks: toChecks(result.details) };
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      const body = error.getResponse() as { details?: Record<string, { status: string }> };
      return { ready: false, checks: toChecks(body.details ?? {}) };
    }
  }
}

function toChecks(details: Record<string, { status: string }>): Record<string, 'up' | 'down'> {
  return Object.fromEntries(
    Object.entries(details).map(([name, detail]) => [name, detail.status === 'up' ? 'up' : 'down']),
  );
}
