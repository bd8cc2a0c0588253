import { Module } from '@nestjs/common';
import { SimulationsModule } from '@app/simulations';
import { SimulationsController } from './simulations.controller.js';

@Module({ imports: [SimulationsModule], controllers: [SimulationsController] })
export class SimulationsApiModule {}
