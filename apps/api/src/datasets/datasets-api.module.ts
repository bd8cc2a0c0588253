import { Module } from '@nestjs/common';
import { DatasetsModule } from '@app/datasets';
import { DatasetTemplateController } from './dataset-template.controller.js';
import { DatasetsController } from './datasets.controller.js';

@Module({ imports: [DatasetsModule], controllers: [DatasetsController, DatasetTemplateController] })
export class DatasetsApiModule {}
