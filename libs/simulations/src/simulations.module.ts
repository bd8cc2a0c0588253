import { Global, Module } from '@nestjs/common';
import { SimulationQueue } from './simulation-queue.js';
import { SimulationRunner } from './simulation-runner.js';
import { SimulationService } from './simulation.service.js';

const PROVIDERS = [SimulationService, SimulationRunner, SimulationQueue];

/** Needs JobsModule (queues) and JudgingModule (the judge) from the app that imports it. */
@Global()
@Module({ providers: PROVIDERS, exports: PROVIDERS })
export class SimulationsModule {}
