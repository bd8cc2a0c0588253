import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { seededRandom } from './random.js';

type JsonSchema = {
  properties: Record<string, JsonSchema>;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  required?: string[];
};

export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format: { type: string; json_schema: { name: string; strict: boolean; schema: JsonSchema } };
}

/** What the fake does with one request. `answers` overrides the generated content per question id. */
export type Behaviour =
  | {
      kind: 'answer';
      confidence?: number;
      choose?: Record<string, string | boolean | number>;
      model?: string;
      delayMs?: number;
    }
  | { kind: 'status'; status: number; delayMs?: number }
  /** Answers after `delayMs`, but fails a share `failRate` of calls with 503, from a seeded sequence. */
  | { kind: 'flaky'; failRate: number; delayMs?: number; seed?: number }
  | { kind: 'content'; content: string; model?: string }
  | { kind: 'hang' };

/**
 * An OpenAI-compatible Chat Completions server for tests: a real HTTP server on 127.0.0.1 that
 * answers from the request's JSON schema, or fails as told, and counts its calls.
 */
export class FakeGateway {
  readonly requests: ChatRequest[] = [];
  private behaviour: Behaviour = { kind: 'answer' };
  private readonly queue: Behaviour[] = [];
  /** Picks a behaviour by the request (for example by the pack version its schema comes from). */
  private router: ((request: ChatRequest) => Behaviour | undefined) | undefined;
  private server!: Server;
  url = '';
  /** Chat requests received and not answered yet (hung ones included), and the most seen at once. */
  inFlight = 0;
  maxInFlight = 0;

  get calls(): number {
    return this.requests.length;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  /** The behaviour for every request from now on. */
  set(behaviour: Behaviour): void {
    this.behaviour = behaviour;
    this.random = undefined;
    this.queue.length = 0;
  }

  /** A behaviour chosen per request, before the queue and the standing one; undefined falls through. */
  route(router: (request: ChatRequest) => Behaviour | undefined): void {
    this.router = router;
  }

  /** The question ids of a request's schema: which pack version asked. */
  static questionIds(request: ChatRequest): string[] {
    return Object.keys(request.response_format.json_schema.schema.properties);
  }

  /** Behaviours for the next requests, in order, before falling back to the standing one. */
  next(...behaviours: Behaviour[]): void {
    this.queue.push(...behaviours);
  }

  reset(): void {
    this.set({ kind: 'answer' });
    this.router = undefined;
    this.requests.length = 0;
    this.maxInFlight = this.inFlight;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private random: (() => number) | undefined;

  /** Whether this call of a flaky gateway fails: mulberry32 over the seed, so a run is repeatable. */
  private flaky(behaviour: Extract<Behaviour, { kind: 'flaky' }>): boolean {
    this.random ??= seededRandom(behaviour.seed ?? 1);
    return this.random() < behaviour.failRate;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as ChatRequest;
    this.requests.push(body);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.once('close', () => (this.inFlight -= 1));
    const given = this.router?.(body) ?? this.queue.shift() ?? this.behaviour;
    const behaviour: Behaviour =
      given.kind === 'flaky'
        ? this.flaky(given)
          ? { kind: 'status', status: 503, delayMs: given.delayMs }
          : { kind: 'answer', delayMs: given.delayMs }
        : given;
    if (behaviour.kind === 'hang') return;
    if ('delayMs' in behaviour && behaviour.delayMs)
      await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    if (behaviour.kind === 'status') {
      res.writeHead(behaviour.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { message: `fake gateway status ${behaviour.status}`, type: 'fake' } }),
      );
      return;
    }
    const content =
      behaviour.kind === 'content'
        ? behaviour.content
        : JSON.stringify(answerFromSchema(body.response_format.json_schema.schema, behaviour));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: behaviour.model ?? 'fake-model-2026-01-01',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
        usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 },
      }),
    );
  }
}

function answerFromSchema(
  schema: JsonSchema,
  behaviour: Extract<Behaviour, { kind: 'answer' }>,
): Record<string, unknown> {
  const confidence = behaviour.confidence ?? 0.9;
  const answers: Record<string, unknown> = {};
  for (const [id, answer] of Object.entries(schema.properties)) {
    const props = answer.properties;
    const chosen = behaviour.choose?.[id];
    if (props.choice) {
      const values = props.choice.enum!;
      const choice = typeof chosen === 'string' ? chosen : values[0];
      const rest = (1 - confidence) / Math.max(1, values.length - 1);
      answers[id] = {
        choice,
        probabilities: Object.fromEntries(values.map((v) => [v, v === choice ? confidence : rest])),
      };
    } else if (props.probability) {
      const yes = chosen === undefined ? true : Boolean(chosen);
      answers[id] = { probability: yes ? confidence : 1 - confidence };
    } else {
      const score = typeof chosen === 'number' ? chosen : (props.score.minimum ?? 0);
      const keys = props.probabilities ? Object.keys(props.probabilities.properties) : null;
      answers[id] = keys
        ? {
            score,
            probabilities: Object.fromEntries(
              keys.map((k) => [k, Number(k) === score ? confidence : (1 - confidence) / (keys.length - 1)]),
            ),
          }
        : { score };
    }
  }
  return answers;
}

export async function startFakeGateway(): Promise<FakeGateway> {
  return new FakeGateway().start();
}
