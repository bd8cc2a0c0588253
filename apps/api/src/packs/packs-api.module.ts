import { Module } from '@nestjs/common';
import { PacksModule } from '@app/packs';
import { PacksController } from './packs.controller.js';

@Module({ imports: [PacksModule], controllers: [PacksController] })
export class PacksApiModule {}
