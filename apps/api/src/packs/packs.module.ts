import { Module } from '@nestjs/common';
import { PacksController } from './packs.controller.js';

@Module({ controllers: [PacksController] })
export class PacksApiModule {}
