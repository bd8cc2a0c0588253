import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { ShadowQueue } from './shadow-queue.js';
import { ShadowRunner } from './shadow-runner.js';
import { ShadowService } from './shadow.service.js';

/** Shadow runs: ShadowService for the API and MCP, ShadowRunner for the worker (docs/shadow-runs.md). */
@Module({
  imports: [JudgingModule],
  providers: [ShadowService, ShadowRunner, ShadowQueue],
  exports: [ShadowService, ShadowRunner],
})
export class ShadowModule {}
