import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { EvaluationsController } from './evaluations.controller.js';

@Module({ imports: [JudgingModule], controllers: [EvaluationsController] })
export class EvaluationsApiModule {}
