import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { JudgeController } from './judge.controller.js';
import { PlaygroundController } from './playground.controller.js';
import { PlaygroundLimiter } from './playground-limiter.js';

@Module({
  imports: [JudgingModule],
  controllers: [JudgeController, PlaygroundController],
  providers: [PlaygroundLimiter],
})
export class JudgingApiModule {}
