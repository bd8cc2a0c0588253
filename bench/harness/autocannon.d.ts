// The few parts of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
    }

    interface Histogram {
      average: number;
      min: number;
      max: number;
      p50: number;
      p99: number;
    }

    interface Result {
      requests: Histogram;
      latency: Histogram;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
    }

    type Client = EventEmitter;

    interface Instance extends EventEmitter {
      stop(): void;
      on(
        event: 'response',
        listener: (client: Client, statusCode: number, resBytes: number, responseTimeMs: number) => void,
      ): this;
    }
  }

  function autocannon(
    options: autocannon.Options,
    done: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export = autocannon;
}
