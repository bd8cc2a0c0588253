import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { EvaluationsController } from '../evaluations/evaluations.controller.js';
import { JudgeController } from './judge.controller.js';
import { PlaygroundController } from './playground.controller.js';
import { PlaygroundLimiter } from './playground-limiter.js';

@Module({
  imports: [JudgingModule],
  controllers: [JudgeController, PlaygroundController, EvaluationsController],
  providers: [PlaygroundLimiter],
})
export class JudgingApiModule {}
