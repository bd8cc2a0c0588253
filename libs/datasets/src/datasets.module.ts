import { Global, Module } from '@nestjs/common';
import { DatasetService } from './dataset.service.js';

@Global()
@Module({ providers: [DatasetService], exports: [DatasetService] })
export class DatasetsModule {}
