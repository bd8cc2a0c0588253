import escapeHtml from 'escape-html';
import type { FastifyReply } from 'fastify';
import { FRAME_ANCESTORS_NONE, NO_FRAMING_HEADERS } from '../no-framing.js';

/** Text placed in HTML: every value from a request or a client's metadata goes through this. */
export const text = (value: unknown): string => escapeHtml(String(value));

/**
 * Pages that hold a form with a credential or a consent: never framed (clickjacking), no script,
 * no third-party anything, and never cached.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  ...NO_FRAMING_HEADERS,
  'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; ${FRAME_ANCESTORS_NONE}; base-uri 'none'`,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The web app's look (Mantine's default font stack, indigo, rounded cards), light and dark, without script. */
const STYLE = `
  :root { color-scheme: light dark; --bg: #f8f9fa; --card: #fff; --text: #212529; --dim: #5c636a; --border: #dee2e6;
    --primary: #4263eb; --primary-hover: #3b5bdb; --error: #c92a2a; --field: #fff; --brand: #4263eb;
    font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
  @media (prefers-color-scheme: dark) { :root { --bg: #1a1b1e; --card: #25262b; --text: #c1c2c5; --dim: #909296;
    --border: #373a40; --field: #1a1b1e; --error: #ff8787; --brand: #748ffc; } }
  body { margin: 0; background: var(--bg); color: var(--text); line-height: 1.55; }
  main { max-width: 26rem; margin: 4rem auto; padding: 2rem; background: var(--card); border: 1px solid var(--border);
    border-radius: 12px; box-shadow: 0 1px 3px #0000000d, 0 10px 15px -5px #0000000d; }
  @media (max-width: 480px) { main { margin: 0; border-radius: 0; border: 0; min-height: 100vh; box-sizing: border-box; } }
  .brand { font-weight: 700; font-size: 1rem; color: var(--brand); margin: 0 0 .5rem; }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; } label { display: block; margin-top: 1rem; font-weight: 600; font-size: .9rem; }
  input[type=email], input[type=password] { width: 100%; padding: .55rem .75rem; font-size: 1rem; box-sizing: border-box;
    border: 1px solid var(--border); border-radius: 8px; background: var(--field); color: var(--text); margin-top: .25rem; }
  input:focus-visible, button:focus-visible { outline: 2px solid var(--primary); outline-offset: 2px; }
  button { margin-top: 1.25rem; padding: .55rem 1.1rem; font-size: .95rem; font-weight: 600; cursor: pointer;
    border-radius: 8px; border: 1px solid var(--border); background: var(--card); color: var(--text); }
  button[value=sign-in], button[value=approve] { background: var(--primary); border-color: var(--primary); color: #fff; }
  button[value=sign-in]:hover, button[value=approve]:hover { background: var(--primary-hover); }
  .host { font-size: 1.2rem; font-weight: 700; margin: 0 0 .25rem; word-break: break-all; }
  .new { border-left: 4px solid var(--primary); padding: .25rem .75rem; }
  .error { color: var(--error); font-weight: 600; } .muted { color: var(--dim); font-size: .9rem; }
  ul { padding-left: 1.2rem; } code { font-size: .95rem; }
  fieldset { border: 1px solid var(--border); border-radius: 8px; margin-top: 1.5rem; } .row { display: flex; gap: .75rem; flex-wrap: wrap; }`;

/** A whole page; `body` must already be escaped HTML. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="/favicon.ico" type="image/svg+xml"><title>${text(title)} · Ticket Judging Service</title><style>${STYLE}</style></head><body><main><p class="brand">Ticket Judge</p>${body}</main></body></html>`;
  return reply.status(status).headers(PAGE_HEADERS).send(html);
}

/** Hidden inputs carrying parameters through a form. */
export function hiddenFields(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${text(name)}" value="${text(value)}">`)
    .join('');
}
