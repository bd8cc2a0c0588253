import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import { getQueueToken } from '@nestjs/bullmq';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Queue } from 'bullmq';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '@app/config';
import { ALL_QUEUES } from '@app/jobs';

export const BULL_BOARD_PATH = '/admin/queues';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The admin token as `Authorization: Bearer <token>`, or as the password of HTTP Basic (for browsers). */
function presentedToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  if (bearer) return bearer[1].trim();
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (!basic) return null;
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

/**
 * Bull Board at /admin/queues for operators, only when ADMIN_TOKEN is set, and only with that
 * token: it shows job data and can retry or remove jobs, so no user credential opens it.
 */
export async function mountBullBoard(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  if (!config.adminToken) return;
  const adminToken = config.adminToken;
  const serverAdapter = new BullBoardFastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: ALL_QUEUES.map((name) => new BullMQAdapter(app.get<Queue>(getQueueToken(name)))),
    serverAdapter,
  });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = presentedToken(request);
      if (token !== null && sameSecret(token, adminToken)) return;
      await reply
        .status(401)
        .header('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"')
        .send({ error: 'admin token required' });
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  });
}
