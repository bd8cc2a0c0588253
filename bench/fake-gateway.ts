import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type JsonSchema = {
  properties: Record<string, JsonSchema>;
  enum?: string[];
  minimum?: number;
};

interface ChatRequest {
  response_format: { json_schema: { schema: JsonSchema } };
}

const CONFIDENCE = 0.9;

/**
 * An OpenAI-compatible Chat Completions server that answers every question of the request's
 * JSON schema after a fixed delay: the stand-in for a model with a known, flat latency. It keeps
 * the last request so the benchmark can replay the exact shape the API sends.
 */
export class FixedDelayGateway {
  lastRequest: string | null = null;
  private server!: Server;
  url = '';

  constructor(private readonly delayMs: number) {}

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    // Above Node's default, so idle keep-alive sockets of the API's pool are not closed under it.
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'GET' && req.url === '/last-request') {
      res.writeHead(this.lastRequest ? 200 : 404, { 'content-type': 'application/json' });
      res.end(this.lastRequest ?? '{}');
      return;
    }
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const raw = Buffer.concat(chunks).toString();
    this.lastRequest = raw;
    const body = JSON.parse(raw) as ChatRequest;
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const content = JSON.stringify(answerFromSchema(body.response_format.json_schema.schema));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: 'fake-model-bench',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 },
      }),
    );
  }
}

/** The first option, `true`, or the lowest score for every question, always with 0.9 confidence. */
function answerFromSchema(schema: JsonSchema): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const [id, answer] of Object.entries(schema.properties)) {
    const props = answer.properties;
    if (props.choice) {
      const values = props.choice.enum ?? [];
      const rest = (1 - CONFIDENCE) / Math.max(1, values.length - 1);
      answers[id] = {
        choice: values[0],
        probabilities: Object.fromEntries(values.map((v, i) => [v, i === 0 ? CONFIDENCE : rest])),
      };
    } else if (props.probability) {
      answers[id] = { probability: CONFIDENCE };
    } else {
      const score = props.score.minimum ?? 0;
      const keys = props.probabilities ? Object.keys(props.probabilities.properties) : null;
      answers[id] = keys
        ? {
            score,
            probabilities: Object.fromEntries(
              keys.map((k) => [k, Number(k) === score ? CONFIDENCE : (1 - CONFIDENCE) / (keys.length - 1)]),
            ),
          }
        : { score };
    }
  }
  return answers;
}
