import { Module } from '@nestjs/common';
import { EvaluationsController } from '../evaluations/evaluations.controller.js';
import { JudgeController } from './judge.controller.js';
import { PlaygroundController } from './playground.controller.js';

@Module({ controllers: [JudgeController, PlaygroundController, EvaluationsController] })
export class JudgingApiModule {}
