import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as OTLP/JSON carries it, with its resource's service name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  status?: { code?: number; message?: string };
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
};
type OtlpAttribute = { key: string; value: OtlpValue };

function valueOf(value: OtlpValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  return value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue ?? null;
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

/**
 * A collector for tests and the trace rendering script: a real HTTP server taking OTLP/HTTP JSON
 * exports (what `@opentelemetry/exporter-trace-otlp-http` sends) on `/v1/traces`, keeping each
 * request's raw body (for a grep over everything exported) and its decoded spans.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every export request's body as received. */
  readonly bodies: string[] = [];
  url = '';
  private server!: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        if (req.url !== '/v1/traces' || !/json/.test(req.headers['content-type'] ?? '')) {
          res.writeHead(415).end();
          return;
        }
        this.bodies.push(raw);
        this.take(JSON.parse(raw));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private take(body: any): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const name = attributesOf(resourceSpans.resource?.attributes)['service.name'];
      const service = typeof name === 'string' ? name : '';
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            startTimeUnixNano: String(span.startTimeUnixNano),
            endTimeUnixNano: String(span.endTimeUnixNano),
            attributes: attributesOf(span.attributes),
            events: (span.events ?? []).map((event: any) => ({
              name: event.name,
              attributes: attributesOf(event.attributes),
            })),
            status: span.status,
          });
        }
      }
    }
  }
}
