import { afterEach, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import Fastify, { type FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExportCell, ExportTable } from '@app/domain';
import { sendCsv } from './csv-export.js';

let server: FastifyInstance | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(table: () => ExportTable): Promise<string> {
  server = Fastify();
  server.get('/export', async (_request, reply) => {
    await sendCsv(reply, 'table.csv', table());
    return reply;
  });
  await server.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}/export`;
}

async function* rowsOf(rows: ExportCell[][]): AsyncGenerator<ExportCell[]> {
  yield* rows;
}

describe('sendCsv', () => {
  it('writes an RFC 4180 attachment with a BOM, CRLF, quoting, and the formula guard', async () => {
    const rows: ExportCell[][] = [
      ['a, b', 'say "hi"', 'two\nlines'],
      ['=1+1', '+cmd', '-2'],
      ['@SUM(A1)', '\tTab', '\rCR'],
      [-3, null, 'plain'],
    ];
    const url = await serve(() => ({ columns: ['x', 'y', 'z'], rows: rowsOf(rows) }));
    const res = await fetch(url);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="table.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.slice(1).split('\r\n')[0]).toBe('x,y,z');
    expect(text).toContain('"a, b","say ""hi""","two\nlines"\r\n');
    expect(parse(text, { bom: true })).toEqual([
      ['x', 'y', 'z'],
      ['a, b', 'say "hi"', 'two\nlines'],
      ["'=1+1", "'+cmd", "'-2"],
      ["'@SUM(A1)", "'\tTab", "'\rCR"],
      ['-3', '', 'plain'],
    ]);
  });

  it('writes the header alone for an empty table', async () => {
    const url = await serve(() => ({ columns: ['id', 'name'], rows: rowsOf([]) }));
    expect(parse(await (await fetch(url)).text(), { bom: true })).toEqual([['id', 'name']]);
  });

  it('reads rows only as the client takes them, and stops reading when the client goes away', async () => {
    let produced = 0;
    let stopped = false;
    async function* endless(): AsyncGenerator<ExportCell[]> {
      try {
        for (;;) {
          produced++;
          yield [produced, 'x'.repeat(1000)];
        }
      } finally {
        stopped = true;
      }
    }
    const url = await serve(() => ({ columns: ['n', 'text'], rows: endless() }));
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const counts = await new Promise<[number, number]>((resolve, reject) => {
      const request = http.get(url, (res) => {
        // One chunk, then no more reading: the buffers fill and the server must stop producing.
        res.once('data', () => {
          res.pause();
          void (async () => {
            await sleep(300);
            const whilePaused = produced;
            await sleep(300);
            const later = produced;
            request.destroy();
            resolve([whilePaused, later]);
          })();
        });
      });
      request.on('error', reject);
    });
    expect(counts[1]).toBe(counts[0]);
    // Bounded by the socket and stream buffers, far below what an endless source could give.
    expect(produced).toBeLessThan(50_000);
    for (let i = 0; i < 50 && !stopped; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(true);
  });

  it('lets an error on the first row reach the error handler before any byte is sent', async () => {
    async function* failing(): AsyncGenerator<ExportCell[]> {
      throw new Error('database away');
    }
    server = Fastify();
    server.setErrorHandler((error: Error, _request, reply) =>
      reply.status(503).send({ error: error.message }),
    );
    server.get('/export', async (_request, reply) => {
      await sendCsv(reply, 'table.csv', { columns: ['id'], rows: failing() });
      return reply;
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
    const port = (server.server.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/export`);
    const res = { statusCode: response.status, json: () => response.json() };
    expect(res.statusCode).toBe(503);
    expect(await res.json()).toEqual({ error: 'database away' });
  });
});
