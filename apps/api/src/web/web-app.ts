import fastifyStatic from '@fastify/static';
import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SessionCookie } from '@app/auth';
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
 * `text/html`) with a session, so deep links and reloads work; without a session, a redirect to
 * `/login?next=<path>`. Other clients keep the API's JSON 404.
 */
export async function serveWebApp(app: NestFastifyApplication, webRoot: string): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // Browsers ask for /favicon.ico on any page (the server pages link it too): the web app's SVG
  // icon, or 204 without a build, never a 404.
  const faviconFile = path.join(webRoot, 'favicon.svg');
  const favicon = existsSync(faviconFile) ? readFileSync(faviconFile) : null;
  fastify.get('/favicon.ico', (_request, reply) =>
    favicon
      ? reply
          .header('content-type', 'image/svg+xml')
          .header('cache-control', 'public, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .send(favicon)
      : reply.code(204).send(),
  );
  const indexFile = path.join(webRoot, 'index.html');
  if (!existsSync(indexFile)) {
    new Logger('WebApp').warn(
      `no web app at ${webRoot}: run \`npm run build:web\` (the API works without it)`,
    );
    return;
  }
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
  // The app's pages need a session: without one the browser goes to /login (and back after it)
  // before the app loads, rather than loading it to be refused (a 401 in the console, then the
  // same redirect).
  const sessionCookie = app.get(SessionCookie, { strict: false });
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) =>
    (await sessionCookie.read(request))
      ? sendIndex(reply)
      : reply.redirect(`/login?next=${encodeURIComponent(request.url)}`, 303);
  fastify.get('/', sendPage);
  fastify.get('/*', (request, reply) => {
    if (ownedByApi(request.url) || !wantsHtml(request)) return reply.callNotFound();
    return sendPage(request, reply);
  });
}
