import { Module } from '@nestjs/common';
import { DatasetService } from './dataset.service.js';

@Module({ providers: [DatasetService], exports: [DatasetService] })
export class DatasetsModule {}
