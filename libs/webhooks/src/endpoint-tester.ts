import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError, signBody } from '@app/domain';
import { EndpointLookup } from '@app/persistence';
import { DeliveryClient } from './delivery-client.js';

/** What one test event got back: the receiver's status (null when none came) and the time it took. */
export interface EndpointTestResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
}

export const TEST_EVENT_TYPE = 'endpoint.test';

/**
 * "Send a test event": one signed `endpoint.test` POST to the user's saved endpoint, through the
 * delivery client (same address guard, signature and 10 s limit as a completion), answered with
 * the outcome. No delivery row is written, so nothing is retried, listed or counted as a failure.
 */
@Injectable()
export class EndpointTester {
  constructor(
    private readonly endpoints: EndpointLookup,
    private readonly client: DeliveryClient,
  ) {}

  async send(userId: string, endpointId: string): Promise<EndpointTestResult> {
    // Past the cache, as a delivery: the test must use the secret that is saved now.
    const endpoint = await this.endpoints.findFresh(userId);
    if (!endpoint || endpoint.id !== endpointId) throw new NotFoundError('webhook endpoint not found');
    const deliveryId = randomUUID();
    const body = JSON.stringify({
      type: TEST_EVENT_TYPE,
      deliveryId,
      sentAt: new Date().toISOString(),
      endpointId: endpoint.id,
    });
    const started = performance.now();
    const result = await this.client.post(endpoint.url, body, {
      'x-service-signature': signBody(endpoint.secret, body),
      'x-service-delivery-id': deliveryId,
    });
    return {
      ok: result.error === null,
      status: result.statusCode,
      durationMs: Math.round(performance.now() - started),
      error: result.error,
    };
  }
}
