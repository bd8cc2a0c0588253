import { Global, Module } from '@nestjs/common';
import { PackService } from './pack.service.js';

@Global()
@Module({ providers: [PackService], exports: [PackService] })
export class PacksModule {}
