import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { WebhooksModule } from '@app/webhooks';
import { SimulationQueue } from './simulation-queue.js';
import { SimulationRunner } from './simulation-runner.js';
import { SimulationExports } from './simulation.export.js';
import { SimulationService } from './simulation.service.js';

/**
 * A finished simulation is announced through WebhookQueue, so simulations import webhooks; webhooks
 * read simulations only through SimulationRepository and never import this module.
 */
@Module({
  imports: [JudgingModule, WebhooksModule],
  providers: [SimulationService, SimulationExports, SimulationRunner, SimulationQueue],
  exports: [SimulationService, SimulationExports, SimulationRunner],
})
export class SimulationsModule {}
