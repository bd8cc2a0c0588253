import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { LiveBacklog } from './live-backlog.js';
import { ShadowQueue } from './shadow-queue.js';
import { ShadowRunner } from './shadow-runner.js';
import { ShadowService } from './shadow.service.js';

/** Shadow runs: ShadowService for the API and MCP, ShadowRunner for the worker (docs/shadow-runs.md). */
@Module({
  imports: [JudgingModule],
  providers: [ShadowService, ShadowRunner, ShadowQueue, LiveBacklog],
  exports: [ShadowService, ShadowRunner, LiveBacklog],
})
export class ShadowModule {}
