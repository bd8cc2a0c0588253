import type { Readable } from 'node:stream';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { request, type Agent } from 'undici';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { outboundAgent } from '@app/outbound';
import {
  cacheSeconds,
  MAX_METADATA_DOCUMENT_BYTES,
  MetadataDocumentError,
  parseClientIdUrl,
  parseMetadataDocument,
  type MetadataDocument,
} from './client-metadata-document.js';

/** The user is waiting on the authorization page while the document is fetched. */
export const METADATA_FETCH_TIMEOUT_MS = 5000;
/** Documents kept per process; past it the oldest goes, so no one can grow the cache without bound. */
const MAX_CACHED_DOCUMENTS = 1000;

interface Cached {
  document: MetadataDocument;
  expiresAt: number;
}

/**
 * Fetches client ID metadata documents: through the address guard of completion deliveries (no
 * private addresses in production, checked on the address dialled), no redirects followed, 5 s,
 * at most 5 kB. Each API process keeps what it fetched for as long as `Cache-Control` allows
 * (`cacheSeconds`); a document is public and small, so a per-process cache costs one fetch per
 * process per lifetime, and keeps what a client serves out of the shared Redis.
 */
@Injectable()
export class MetadataDocumentFetcher implements OnModuleDestroy {
  private readonly agent: Agent;
  private readonly cache = new Map<string, Cached>();
  /** Fetches under way, shared by the requests that want the same document at once. */
  private readonly inFlight = new Map<string, Promise<MetadataDocument>>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.agent = outboundAgent({ allowPrivate: config.oauthMetadataAllowPrivateUrls, connections: 16 });
  }

  /** The checked document of `clientId` (an https URL), or MetadataDocumentError saying why not. */
  async get(clientId: string): Promise<MetadataDocument> {
    const url = parseClientIdUrl(clientId);
    const cached = this.cache.get(clientId);
    if (cached && cached.expiresAt > Date.now()) return cached.document;
    this.cache.delete(clientId);
    let fetching = this.inFlight.get(clientId);
    if (!fetching) {
      fetching = this.fetch(url, clientId).finally(() => this.inFlight.delete(clientId));
      this.inFlight.set(clientId, fetching);
    }
    return fetching;
  }

  private async fetch(url: URL, clientId: string): Promise<MetadataDocument> {
    const { body, cacheControl } = await this.download(url);
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new MetadataDocumentError('the metadata document is not JSON');
    }
    const document = parseMetadataDocument(clientId, json);
    const seconds = cacheSeconds(cacheControl);
    if (seconds > 0) {
      if (this.cache.size >= MAX_CACHED_DOCUMENTS) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(clientId, { document, expiresAt: Date.now() + seconds * 1000 });
    }
    return document;
  }

  private async download(url: URL): Promise<{ body: string; cacheControl?: string }> {
    const signal = AbortSignal.timeout(METADATA_FETCH_TIMEOUT_MS);
    let response: Awaited<ReturnType<typeof request>>;
    try {
      // undici's request follows no redirects unless told to.
      response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'ticket-judge-oauth/0.1' },
        dispatcher: this.agent,
        signal,
        headersTimeout: METADATA_FETCH_TIMEOUT_MS,
        bodyTimeout: METADATA_FETCH_TIMEOUT_MS,
      });
    } catch (error) {
      throw new MetadataDocumentError(`the metadata document could not be fetched (${fetchFailure(error)})`);
    }
    const header = response.headers['cache-control'];
    const cacheControl = Array.isArray(header) ? header.join(', ') : header;
    if (response.statusCode !== 200) {
      discard(response.body);
      throw new MetadataDocumentError(
        response.statusCode >= 300 && response.statusCode < 400
          ? `the metadata document's address answered with a redirect (HTTP ${response.statusCode}), which is not followed`
          : `the metadata document's address answered HTTP ${response.statusCode}`,
      );
    }
    const tooLarge = () =>
      new MetadataDocumentError(`the metadata document is larger than ${MAX_METADATA_DOCUMENT_BYTES} bytes`);
    if (Number(response.headers['content-length'] ?? 0) > MAX_METADATA_DOCUMENT_BYTES) {
      discard(response.body);
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_METADATA_DOCUMENT_BYTES) {
          discard(response.body);
          throw tooLarge();
        }
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof MetadataDocumentError) throw error;
      throw new MetadataDocumentError(`the metadata document could not be read (${fetchFailure(error)})`);
    }
    return { body: Buffer.concat(chunks).toString('utf8'), cacheControl };
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }
}

/** Drops an answer's body unread; undici then emits an abort error, which must not go unhandled. */
function discard(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

/** Why a fetch failed, in a few words: a timeout, a refused private address, or the network's code. */
function fetchFailure(error: unknown): string {
  if (!(error instanceof Error)) return 'request failed';
  if (error.name === 'TimeoutError' || error.name === 'AbortError' || /timeout/i.test(error.name)) {
    return `no answer within ${METADATA_FETCH_TIMEOUT_MS / 1000} s`;
  }
  const cause = (error as { cause?: unknown }).cause;
  const inner = cause instanceof Error ? cause : error;
  if ((inner as NodeJS.ErrnoException).code === 'EBLOCKED') {
    return 'its address is private, loopback or link-local';
  }
  return ((inner as NodeJS.ErrnoException).code ?? inner.name).slice(0, 60);
}
