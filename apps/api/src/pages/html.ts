import escapeHtml from 'escape-html';
import type { FastifyReply } from 'fastify';

/** Text placed in HTML: every value from a request or a client's metadata goes through this. */
export const text = (value: unknown): string => escapeHtml(String(value));

/**
 * Pages that hold a form with a credential or a consent: never framed (clickjacking), no script,
 * no third-party anything, and never cached.
 */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { max-width: 28rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; }
  h1 { font-size: 1.4rem; } label { display: block; margin-top: 1rem; font-weight: 600; }
  input[type=email], input[type=password] { width: 100%; padding: .5rem; font-size: 1rem; box-sizing: border-box; }
  button { margin-top: 1.25rem; padding: .55rem 1.1rem; font-size: 1rem; cursor: pointer; }
  .error { color: #b00020; font-weight: 600; } .muted { opacity: .75; font-size: .9rem; }
  ul { padding-left: 1.2rem; } code { font-size: .95rem; }
  fieldset { border: 1px solid #8884; margin-top: 1.5rem; } .row { display: flex; gap: .75rem; }`;

/** A whole page; `body` must already be escaped HTML. */
export function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${text(title)} · Ticket Judging Service</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
  return reply.status(status).headers(PAGE_HEADERS).send(html);
}

/** Hidden inputs carrying parameters through a form. */
export function hiddenFields(fields: Record<string, string | undefined>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${text(name)}" value="${text(value)}">`)
    .join('');
}
