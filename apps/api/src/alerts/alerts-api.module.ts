import { Module } from '@nestjs/common';
import { AlertsModule } from '@app/alerts';
import { AlertsController } from './alerts.controller.js';

@Module({ imports: [AlertsModule], controllers: [AlertsController] })
export class AlertsApiModule {}
