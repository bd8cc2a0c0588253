import { Module } from '@nestjs/common';
import { PackService } from './pack.service.js';

@Module({ providers: [PackService], exports: [PackService] })
export class PacksModule {}
