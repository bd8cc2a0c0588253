import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FRAME_ANCESTORS_NONE } from '../no-framing.js';

/**
 * Paths the API owns. A browser navigating anywhere else gets the web app's `index.html`, and the
 * app's router takes over; under these, an unknown path stays the API's JSON 404.
 */
const API_PREFIXES = [
  '/api',
  '/app',
  '/mcp',
  '/docs',
  '/.well-known',
  '/oauth',
  '/admin',
  '/login',
  '/consent',
];
const API_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The app's pages: no inline scripts, styles from the bundle plus the CSS variables Mantine writes
 * into a style element, API calls to this origin only, never framed.
 */
const WEB_APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  FRAME_ANCESTORS_NONE,
].join('; ');

function ownedByApi(url: string): boolean {
  const pathname = url.split('?')[0];
  return (
    API_PATHS.has(pathname) ||
    API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
  );
}

const wantsHtml = (request: FastifyRequest) => (request.headers.accept ?? '').includes('text/html');

/**
 * Serves the built web app (`npm run build:web`) at `/`: hashed assets cached for a year, `index.html`
 * never cached, and client routes answered with `index.html` for browsers (an `Accept` with
 * `text/html`), so deep links and reloads work. Other clients keep the API's JSON 404.
 */
export async function serveWebApp(app: NestFastifyApplication, webRoot: string): Promise<void> {
  const indexFile = path.join(webRoot, 'index.html');
  if (!existsSync(indexFile)) {
    new Logger('WebApp').warn(
      `no web app at ${webRoot}: run \`npm run build:web\` (the API works without it)`,
    );
    return;
  }
  const fastify = app.getHttpAdapter().getInstance();
  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('cache-control', 'no-cache')
      .header('content-security-policy', WEB_APP_CSP)
      .header('x-content-type-options', 'nosniff')
      .sendFile('index.html');
  await app.register(fastifyStatic, {
    root: webRoot,
    prefix: '/',
    wildcard: false,
    index: false,
    // The .br and .gz copies written by `npm run build:web`, for browsers that accept them.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.header('x-content-type-options', 'nosniff');
      if (filePath.endsWith('.html')) reply.header('content-security-policy', WEB_APP_CSP);
      reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`)
          ? 'public, max-age=31536000, immutable'
          : 'no-cache',
      );
    },
  });
  fastify.get('/', (_request, reply) => sendIndex(reply));
  fastify.get('/*', (request, reply) => {
    if (ownedByApi(request.url) || !wantsHtml(request)) return reply.callNotFound();
    return sendIndex(reply);
  });
}
