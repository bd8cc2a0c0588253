import autocannon from 'autocannon';

export interface LoadTarget {
  url: string;
  /** POST unless given. */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  rps: number;
  /** Milliseconds, over 2xx responses, at sub-millisecond resolution. */
  p50: number;
  p99: number;
  mean: number;
  responses: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statusCodes: Record<string, number>;
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * Closed-loop load: `connections` keep-alive connections, each sending the next request as soon as
 * the previous answer arrives. Latencies come from autocannon's per-response timings (float ms)
 * rather than its histogram, which rounds to whole milliseconds.
 */
export function runLoad(
  target: LoadTarget,
  connections: number,
  durationSeconds: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'POST',
        headers: target.headers,
        body: target.body,
        connections,
        duration: durationSeconds,
        timeout: 30,
      },
      (error, result) => {
        if (error) {
          reject(error);
          return;
        }
        latencies.sort((a, b) => a - b);
        resolve({
          rps: result.requests.average,
          p50: percentile(latencies, 50),
          p99: percentile(latencies, 99),
          mean: latencies.reduce((sum, value) => sum + value, 0) / Math.max(1, latencies.length),
          responses: result['2xx'] + result.non2xx,
          non2xx: result.non2xx,
          errors: result.errors,
          statusCodes: Object.fromEntries(
            Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count]),
          ),
        });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latencies.push(responseTimeMs);
    });
  });
}

export interface Timing {
  p50: number;
  p95: number;
  p99: number;
  requests: number;
}

/**
 * One client, like a dashboard: `requests` sequential GETs after `warmup` untimed ones, latency
 * measured at the client.
 */
export async function timeGets(
  url: string,
  headers: Record<string, string>,
  { requests, warmup = 20 }: { requests: number; warmup?: number },
): Promise<Timing> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < warmup; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < requests; i++) samples.push(await once());
  samples.sort((a, b) => a - b);
  return {
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    requests,
  };
}
