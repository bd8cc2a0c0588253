import { Module } from '@nestjs/common';
import { ShadowModule } from '@app/shadow';
import { ShadowController } from './shadow.controller.js';

@Module({ imports: [ShadowModule], controllers: [ShadowController] })
export class ShadowApiModule {}
