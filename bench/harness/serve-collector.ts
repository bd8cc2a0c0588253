// Child process: the OTLP/HTTP collector of `bench:judge`'s traced API, on a free port of
// 127.0.0.1. It answers every export 200 and counts the exports and their bytes; it decodes
// nothing (the spans' content is tested in test/e2e/traces.e2e-spec.ts, not timed here).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveUntilStopped } from './processes.js';

/** What `ask('stats')` answers: the benchmark checks the traced API did export. */
export interface CollectorStats {
  exports: number;
  bytes: number;
}

const stats: CollectorStats = { exports: 0, bytes: 0 };
const server = createServer((req, res) => {
  req.on('data', (chunk: Buffer) => (stats.bytes += chunk.length));
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/v1/traces') {
      stats.exports++;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return;
    }
    res.writeHead(404).end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
serveUntilStopped(
  url,
  async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  },
  { stats: () => stats },
);
