import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { ALL_QUEUES } from './queues.js';

const QUIET_MS = 10_000;

/**
 * Logs queue connection errors as warnings, at most one per queue every 10 s, instead of BullMQ's
 * default console.error on every reconnect attempt while Redis is away.
 */
@Injectable()
export class QueueErrorLogger implements OnModuleInit {
  private readonly logger = new Logger('Queues');

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit(): void {
    for (const name of ALL_QUEUES) {
      const queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false });
      let last = 0;
      queue.on('error', (error: Error) => {
        if (Date.now() - last < QUIET_MS) return;
        last = Date.now();
        this.logger.warn({ queue: name, err: error.message }, 'queue connection error');
      });
    }
  }
}
