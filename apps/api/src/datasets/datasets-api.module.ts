import { Module } from '@nestjs/common';
import { DatasetsModule } from '@app/datasets';
import { DatasetsController } from './datasets.controller.js';

@Module({ imports: [DatasetsModule], controllers: [DatasetsController] })
export class DatasetsApiModule {}
