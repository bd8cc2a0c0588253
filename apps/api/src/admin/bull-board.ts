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

const READS = new Set(['GET', 'HEAD']);

/**
 * Bull Board at /admin/queues for operators, only when ADMIN_TOKEN or ADMIN_WRITE_TOKEN is set,
 * and only with one of them: it shows job data, so no user credential opens it. ADMIN_TOKEN
 * opens it read-only; its retry, promote, clean and remove actions need ADMIN_WRITE_TOKEN (without
 * one, the board hides them and refuses them).
 */
export async function mountBullBoard(app: NestFastifyApplication, config: AppConfig): Promise<void> {
  const { adminToken, adminWriteToken } = config;
  if (!adminToken && !adminWriteToken) return;
  const serverAdapter = new BullBoardFastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    queues: ALL_QUEUES.map(
      (name) => new BullMQAdapter(app.get<Queue>(getQueueToken(name)), { readOnlyMode: !adminWriteToken }),
    ),
    serverAdapter,
  });
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = presentedToken(request);
      const writes = token !== null && adminWriteToken !== undefined && sameSecret(token, adminWriteToken);
      const reads = writes || (token !== null && adminToken !== undefined && sameSecret(token, adminToken));
      if (!reads) {
        return reply
          .status(401)
          .header('WWW-Authenticate', 'Basic realm="queues", charset="UTF-8"')
          .send({ error: 'admin token required' });
      }
      if (!writes && !READS.has(request.method))
        return reply.status(403).send({ error: 'admin write token required' });
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  });
}
