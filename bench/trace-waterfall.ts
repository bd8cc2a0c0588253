// `npm run trace:screenshot`: a real inbound-event trace, drawn as a waterfall for docs/operations.md.
// The API and a worker run with OTEL_EXPORTER_OTLP_ENDPOINT pointed at an OTLP/HTTP receiver in
// this process (test/support/otlp-receiver.ts); one inbound event is sent, its completion endpoint
// refuses the first delivery, and the spans of that trace are rendered as HTML and photographed in
// Debian's Chromium. Jaeger cannot run where this was made (no container runtime, no downloads), so
// this is our own drawing of the exported spans, not Jaeger's UI.
import { mkdirSync, writeFileSync } from 'node:fs';
import escapeHtml from 'escape-html';
import { launchBrowser } from '../test/support/chromium.js';
import { OtlpReceiver, type ReceivedSpan } from '../test/support/otlp-receiver.js';
import { TICKET } from '../test/support/packs.js';
import { Receiver } from '../test/support/receiver.js';
import { eventually } from '../test/support/worker.js';
import { log, runMain } from './harness/log.js';
import { readOptions } from './harness/options.js';
import { BenchRun, createTenant } from './harness/run.js';

const SCREENSHOT = 'docs/screenshots/trace-inbound-event.png';
const options = readOptions({});
const KINDS = ['', 'internal', 'server', 'client', 'producer', 'consumer'];
/** The attributes shown beside a span, in this order, when it has them. */
const SHOWN = [
  'http.route',
  'url.full',
  'url.query',
  'http.response.status_code',
  'bullmq.job.name',
  'bullmq.job.attempts.made',
  'db.query.text',
];

async function main(): Promise<void> {
  await BenchRun.with('traces', options, {}, async (run) => {
    const otlp = await new OtlpReceiver().start();
    run.onClose(() => otlp.close());
    const receiver = await new Receiver().start();
    run.onClose(() => receiver.close());
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    await run.gateway(120);
    const api = await run.api(tracing);
    await run.workers(1, { ...tracing, WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_BACKOFF_MS: '300' });

    const tenant = await createTenant(api.url);
    await tenant.client.post('/api/webhook-endpoints', { url: receiver.url });
    receiver.next(503);
    const accepted = await tenant.client.post<{ eventId: string }>('/api/webhooks/inbound', {
      packId: tenant.packId,
      ticket: TICKET,
    });
    if (accepted.status !== 202) throw new Error(`inbound answered ${accepted.status}`);
    log(`event ${accepted.body.eventId} accepted; waiting for both delivery attempts and their spans`);
    await until(() => (receiver.calls.length >= 2 ? true : undefined));
    const request = await until(() =>
      otlp.spans.find((span) => span.kind === 2 && span.attributes['url.path'] === '/api/webhooks/inbound'),
    );
    const receiverPort = Number(new URL(receiver.url).port);
    const spans = await until(() => {
      const trace = otlp.trace(request.traceId);
      const attempts = trace.filter((span) => span.attributes['server.port'] === receiverPort);
      return attempts.length === 2 ? trace : undefined;
    });
    // The last spans (the worker's job ends after its request) come in the next export.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const trace = otlp.trace(request.traceId);
    log(`trace ${request.traceId}: ${trace.length} spans (${spans.length} when both attempts had arrived)`);

    mkdirSync('docs/screenshots', { recursive: true });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 600 } });
      await page.setContent(render(request.traceId, trace));
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await browser.close();
    }
    writeFileSync('dist/trace-inbound-event.json', JSON.stringify(trace, null, 2));
    log(`wrote ${SCREENSHOT} (and the spans to dist/trace-inbound-event.json)`);
  });
}

/** `eventually`, for a check that needs no waiting of its own. */
const until = <T>(check: () => T | undefined) => eventually(() => Promise.resolve(check()));

/** The spans in tree order: each after its parent, siblings by start time. */
function treeOrder(spans: ReceivedSpan[]): { span: ReceivedSpan; depth: number }[] {
  const ids = new Set(spans.map((span) => span.spanId));
  const children = new Map<string, ReceivedSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanId && ids.has(span.parentSpanId) ? span.parentSpanId : '';
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const ordered: { span: ReceivedSpan; depth: number }[] = [];
  const visit = (parent: string, depth: number) => {
    const list = (children.get(parent) ?? []).sort((a, b) =>
      Number(BigInt(a.startTimeUnixNano) - BigInt(b.startTimeUnixNano)),
    );
    for (const span of list) {
      ordered.push({ span, depth });
      visit(span.spanId, depth + 1);
    }
  };
  visit('', 0);
  return ordered;
}

function render(traceId: string, spans: ReceivedSpan[]): string {
  const ms = (nanos: string) => Number(BigInt(nanos) / 1000n) / 1000;
  const start = Math.min(...spans.map((span) => ms(span.startTimeUnixNano)));
  const end = Math.max(...spans.map((span) => ms(span.endTimeUnixNano)));
  const total = Math.max(1, end - start);
  const services = [...new Set(spans.map((span) => span.service))].sort();
  const colour = (service: string) => (service.endsWith('worker') ? '#c2410c' : '#1d4ed8');
  const rows = treeOrder(spans)
    .map(({ span, depth }) => {
      const from = ms(span.startTimeUnixNano) - start;
      const length = ms(span.endTimeUnixNano) - ms(span.startTimeUnixNano);
      const details = SHOWN.filter((key) => span.attributes[key] !== undefined)
        .map((key) => `${key}=${String(span.attributes[key]).replace(/\s+/g, ' ').slice(0, 70)}`)
        .join('  ');
      return `<tr>
  <td class="name" style="padding-left:${8 + depth * 14}px"><span class="dot" style="background:${colour(span.service)}"></span>${escapeHtml(span.name)} <span class="kind">${KINDS[span.kind] ?? ''}</span></td>
  <td class="lane"><div class="bar" style="left:${(from / total) * 100}%;width:max(2px,${(length / total) * 100}%);background:${colour(span.service)}"></div><span class="ms" style="left:${Math.min(92, (from / total) * 100)}%">${length.toFixed(1)} ms</span></td>
  <td class="attrs">${escapeHtml(details)}</td>
</tr>`;
    })
    .join('\n');
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { font: 12px/1.4 system-ui, sans-serif; margin: 16px; color: #111; }
h1 { font-size: 16px; margin: 0 0 4px; } p { margin: 0 0 10px; color: #444; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
td { border-bottom: 1px solid #eee; padding: 3px 8px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
td.name { width: 330px; } td.lane { position: relative; width: 420px; } td.attrs { color: #555; font-family: ui-monospace, monospace; font-size: 11px; }
.bar { position: absolute; top: 5px; height: 10px; border-radius: 2px; opacity: .85; }
.ms { position: absolute; top: 14px; font-size: 9px; color: #666; }
.dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; margin-right: 6px; }
.kind { color: #888; font-size: 10px; } .legend span { margin-right: 14px; }
</style></head><body>
<h1>Trace ${escapeHtml(traceId)}: one inbound event, ${spans.length} spans over ${total.toFixed(0)} ms</h1>
<p>Rendered by bench/trace-waterfall.ts from the spans the API and a worker exported over OTLP/HTTP (JSON) to a receiver in that script; not Jaeger's UI. The completion endpoint refused the first delivery (503), so the deliver job ran twice.</p>
<p class="legend">${services.map((service) => `<span><span class="dot" style="background:${colour(service)}"></span>${escapeHtml(service)}</span>`).join('')}</p>
<table>${rows}</table></body></html>`;
}

runMain(main);
