import { Module } from '@nestjs/common';
import { EvaluationsController } from '../evaluations/evaluations.controller.js';
import { JudgeController } from './judge.controller.js';

@Module({ controllers: [JudgeController, EvaluationsController] })
export class JudgingApiModule {}
