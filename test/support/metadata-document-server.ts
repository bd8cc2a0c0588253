import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export type DocumentHandler = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * An https server on 127.0.0.1 serving OAuth client ID metadata documents, with a certificate from
 * a CA made for this test run by openssl. Only a process started with `NODE_EXTRA_CA_CERTS=caFile`
 * trusts it: the API under test runs as such a process, so no product code knows of a test CA.
 */
export class MetadataDocumentServer {
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'tj-cimd-'));
  private readonly routes = new Map<string, DocumentHandler>();
  private readonly hits = new Map<string, number>();
  private server?: Server;
  url = '';

  get caFile(): string {
    return path.join(this.dir, 'ca.pem');
  }

  async start(): Promise<this> {
    const file = (name: string) => path.join(this.dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.pem'),
      '-days',
      '1',
      '-subj',
      '/CN=tj test CA',
    );
    openssl('req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', '/CN=127.0.0.1');
    writeFileSync(file('leaf.ext'), 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n');
    openssl(
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file('leaf.pem'),
      '-days',
      '1',
      '-extfile',
      file('leaf.ext'),
    );
    this.server = createServer(
      { key: readFileSync(file('leaf.key')), cert: readFileSync(file('leaf.pem')) },
      (request, response) => {
        const pathname = new URL(request.url ?? '/', 'https://127.0.0.1').pathname;
        this.hits.set(pathname, this.hitsOf(pathname) + 1);
        const handler = this.routes.get(pathname);
        if (handler) handler(request, response);
        else response.writeHead(404).end();
      },
    );
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Serves `handler` at `pathname`; the document's URL. */
  route(pathname: string, handler: DocumentHandler): string {
    this.routes.set(pathname, handler);
    return `${this.url}${pathname}`;
  }

  /** Serves `body` as JSON at `pathname` (an object is serialized); the document's URL. */
  json(pathname: string, body: unknown, headers: Record<string, string> = {}): string {
    return this.route(pathname, (_request, response) => {
      response
        .writeHead(200, { 'content-type': 'application/json', ...headers })
        .end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  }

  hitsOf(pathname: string): number {
    return this.hits.get(pathname) ?? 0;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    rmSync(this.dir, { recursive: true, force: true });
  }
}
