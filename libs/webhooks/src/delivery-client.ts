import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { Agent } from 'undici';
import { request } from 'undici';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { outboundAgent } from '@app/outbound';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of a receiver's answer is read; the rest is dropped. */
const MAX_RESPONSE_BYTES = 4096;

/**
 * `<name>: <message>`, at most 300 characters. Read by shape, not `instanceof Error`: an error
 * raised in another realm (a VM context, a worker) is still an error with a message.
 */
function describeError(error: unknown): string {
  if (typeof error !== 'object' || error === null || typeof (error as Error).message !== 'string')
    return 'request failed';
  const { name, message } = error as Error;
  return `${typeof name === 'string' ? name : 'Error'}: ${message}`.slice(0, 300);
}

export interface DeliveryResult {
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs completions: no redirects followed, a 10 s limit, at most 4 KiB of the answer read, and
 * (in production) connections only to public addresses, checked on the address actually dialled:
 * IP literals by the connector, host names by its lookup.
 */
@Injectable()
export class DeliveryClient implements OnModuleDestroy {
  private readonly agent: Agent;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.agent = outboundAgent({ allowPrivate: config.webhooks.allowPrivateUrls, connections: 64 });
  }

  async post(url: string, body: string, headers: Record<string, string>): Promise<DeliveryResult> {
    try {
      const response = await request(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'ticket-judge-webhooks/0.1',
          ...headers,
        },
        dispatcher: this.agent,
        signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      });
      await response.body.dump({ limit: MAX_RESPONSE_BYTES }).catch(() => undefined);
      return {
        statusCode: response.statusCode,
        error: response.statusCode >= 200 && response.statusCode < 300 ? null : `HTTP ${response.statusCode}`,
      };
    } catch (error) {
      return {
        statusCode: null,
        error: describeError(error),
      };
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close();
  }
}
