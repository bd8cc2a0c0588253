import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCall {
  headers: IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A completion receiver for tests: a real HTTP server answering with scripted statuses. */
export class Receiver {
  readonly calls: ReceivedCall[] = [];
  private readonly statuses: number[] = [];
  standing = 200;
  /** How long each answer waits, to hold a request in flight. */
  delayMs = 0;
  url = '';
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.calls.push({ headers: req.headers, raw, body: JSON.parse(raw) });
        const status = this.statuses.shift() ?? this.standing;
        setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end('ok'), this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  /** Statuses for the next calls, in order, before the standing one. */
  next(...statuses: number[]): void {
    this.statuses.push(...statuses);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** What docs/webhooks.md tells receivers to do: HMAC-SHA256 of the raw body, constant-time compare. */
export function verifies(secret: string, raw: string, header: string | string[] | undefined): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export function sign(secret: string, raw: string): string {
  return `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
}
