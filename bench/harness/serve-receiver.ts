// Child process: the completion receiver of `bench:inbound` and `bench:scale`, on a free port of
// 127.0.0.1. It answers every delivery 200, verifies its signature once it knows the secret, and
// counts. Unlike test/support's Receiver it keeps no bodies: a run delivers hundreds of thousands.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifies } from '../../test/support/receiver.js';
import { serveUntilStopped } from './processes.js';

/** What `GET /stats` answers: the benchmark polls it to time the drain. */
export interface ReceiverStats {
  deliveries: number;
  /** Distinct `X-Service-Event-Id`s: one completion per accepted event is the goal. */
  events: number;
  duplicates: number;
  badSignatures: number;
  /** Epoch ms at which the latest new event arrived, or null before the first. */
  lastNewEventAt: number | null;
}

const seen = new Set<string>();
/** Epoch ms of each new event's first completion, in arrival order. */
const arrivals: number[] = [];
const stats: ReceiverStats = {
  deliveries: 0,
  events: 0,
  duplicates: 0,
  badSignatures: 0,
  lastNewEventAt: null,
};
let secret: string | null = null;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function onDelivery(req: IncomingMessage, raw: Buffer): void {
  stats.deliveries++;
  if (secret && !verifies(secret, raw.toString(), req.headers['x-service-signature'])) stats.badSignatures++;
  const eventId = String(req.headers['x-service-event-id'] ?? '');
  if (seen.has(eventId)) {
    stats.duplicates++;
    return;
  }
  seen.add(eventId);
  stats.events = seen.size;
  stats.lastNewEventAt = Date.now();
  arrivals.push(stats.lastNewEventAt);
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await readBody(req);
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  if (req.method === 'GET' && req.url === '/arrivals') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(arrivals));
    return;
  }
  // The secret arrives after the endpoint is saved, which needs this server's URL first.
  if (req.method === 'PUT' && req.url === '/secret') {
    secret = raw.toString();
    res.writeHead(204).end();
    return;
  }
  if (req.method === 'POST' && req.url === '/completions') {
    onDelivery(req, raw);
    res.writeHead(200).end();
    return;
  }
  res.writeHead(404).end();
}

const server = createServer((req, res) => void handle(req, res));
// Above undici's keep-alive, so the worker's pooled sockets are not closed under it.
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
serveUntilStopped(url, async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
