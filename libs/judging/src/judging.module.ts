import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { MetricsModule } from '@app/metrics';
import { AuditSampler } from './audit-sampler.js';
import { CalibrationReader } from './calibrated-fields.js';
import { EvaluationService } from './evaluation.service.js';
import { LocalLexicalGateway } from './gateway/local.gateway.js';
import { MODEL_GATEWAY, type ModelGateway } from './gateway/model-gateway.js';
import { OpenAiGateway } from './gateway/openai.gateway.js';
import { IdempotencyKeyRepository } from './idempotency/idempotency-key.repository.js';
import { IdempotencyService } from './idempotency/idempotency.service.js';
import { JudgeService } from './judge.service.js';
import { PlaygroundJudge } from './playground-judge.js';

/** The gateway is chosen by configuration: OpenAI-compatible when MODEL_GATEWAY_URL is set, else local. */
export function createModelGateway(config: AppConfig): ModelGateway {
  const { url, apiKey, organization, project, model, timeoutMs } = config.modelGateway;
  return url
    ? new OpenAiGateway({ url, apiKey, organization, project, model, timeoutMs })
    : new LocalLexicalGateway();
}

@Module({
  imports: [MetricsModule],
  providers: [
    { provide: MODEL_GATEWAY, inject: [APP_CONFIG], useFactory: createModelGateway },
    JudgeService,
    PlaygroundJudge,
    EvaluationService,
    IdempotencyService,
    IdempotencyKeyRepository,
    AuditSampler,
    CalibrationReader,
  ],
  exports: [
    JudgeService,
    PlaygroundJudge,
    EvaluationService,
    IdempotencyService,
    IdempotencyKeyRepository,
    CalibrationReader,
  ],
})
export class JudgingModule {}
