import { Module } from '@nestjs/common';
import { SimulationsController } from './simulations.controller.js';

@Module({ controllers: [SimulationsController] })
export class SimulationsApiModule {}
