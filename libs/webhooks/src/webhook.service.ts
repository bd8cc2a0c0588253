import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  BadRequestError,
  canRedeliver,
  ConflictError,
  NotFoundError,
  redactTicket,
  UnauthenticatedError,
  verifyBodySignature,
  type Ticket,
} from '@app/domain';
import { IdempotencyService } from '@app/judging';
import {
  CursorCodec,
  EndpointLookup,
  LiveVersionCache,
  WebhookRepository,
  type DeliveryStatus,
} from '@app/persistence';
import { isBlockedAddress, resolveAll } from '@app/outbound';
import { WebhookQueue } from './webhook-queue.js';
import { toDeliveryView, type DeliveryView } from './webhook.views.js';

export const DELIVERIES_PAGE_SIZE = 50;

export interface InboundRequest {
  packId: string;
  ticket: Ticket;
  rawBody: string;
  signature?: string;
  idempotencyKey?: string;
}

/** The API side of webhooks: the completion endpoint, inbound events, and the deliveries list. */
@Injectable()
export class WebhookService {
  private readonly logger = new Logger(WebhookService.name);
  private readonly cursors: CursorCodec;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly endpoints: EndpointLookup,
    private readonly liveVersions: LiveVersionCache,
    private readonly idempotency: IdempotencyService,
    private readonly queue: WebhookQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.cursors = new CursorCodec(config.sessionSecret);
  }

  /** Saves the user's one endpoint (replacing an earlier one) with a new secret, returned this once. */
  async saveEndpoint(userId: string, url: string, requireInboundSignature = false) {
    await this.assertDeliverable(url);
    const secret = `whsec_${randomBytes(32).toString('base64url')}`;
    const endpoint = await this.webhooks.saveEndpoint(userId, {
      id: randomUUID(),
      url,
      secret,
      requireInboundSignature,
    });
    return {
      id: endpoint.id,
      url: endpoint.url,
      secret,
      requireInboundSignature: endpoint.requireInboundSignature,
    };
  }

  async listEndpoints(
    userId: string,
  ): Promise<Array<{ id: string; url: string; requireInboundSignature: boolean }>> {
    const endpoint = await this.endpoints.find(userId);
    return endpoint
      ? [{ id: endpoint.id, url: endpoint.url, requireInboundSignature: endpoint.requireInboundSignature }]
      : [];
  }

  async deleteEndpoint(userId: string, id: string): Promise<void> {
    if (!(await this.webhooks.deleteEndpoint(userId, id)))
      throw new NotFoundError('webhook endpoint not found');
  }

  /**
   * Accepts an inbound ticket: signature (when sent or required), pack and live version checked,
   * the redacted event written to Postgres (durable before the answer), then enqueued. If Redis is
   * away the event still stands; the worker's sweeper enqueues it later.
   */
  async receive(userId: string, request: InboundRequest): Promise<{ eventId: string }> {
    const endpoint = await this.endpoints.find(userId);
    if (request.signature !== undefined || endpoint?.requireInboundSignature) {
      if (
        !endpoint ||
        !request.signature ||
        !verifyBodySignature(endpoint.secret, request.rawBody, request.signature)
      ) {
        throw new UnauthenticatedError('invalid signature');
      }
    }
    const accept = async () => {
      const live = await this.liveVersions.find(userId, request.packId);
      if (!live.found) {
        throw live.reason === 'pack_not_found'
          ? new NotFoundError('pack not found')
          : new ConflictError('pack has no published version');
      }
      const eventId = randomUUID();
      await this.webhooks.createEvent({
        id: eventId,
        userId,
        packId: live.packId,
        packVersionId: live.versionId,
        ticket: redactTicket(request.ticket),
      });
      await this.queue
        .judge(eventId)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, eventId }, 'enqueue failed; the sweeper will enqueue the event'),
        );
      return eventId;
    };
    if (!request.idempotencyKey) return { eventId: await accept() };
    const { resultId } = await this.idempotency.run(userId, 'inbound', request.idempotencyKey, async () => ({
      resultId: await accept(),
      keep: true,
    }));
    return { eventId: resultId };
  }

  async listDeliveries(
    userId: string,
    status?: DeliveryStatus,
    cursor?: string,
  ): Promise<{ items: DeliveryView[]; nextCursor: string | null }> {
    const scope = `${userId}:deliveries`;
    const after = cursor ? this.cursors.decode(cursor, scope) : null;
    const rows = await this.webhooks.listDeliveries(userId, status, after, DELIVERIES_PAGE_SIZE + 1);
    const items = rows.slice(0, DELIVERIES_PAGE_SIZE);
    const last = items.at(-1);
    const nextCursor =
      rows.length > DELIVERIES_PAGE_SIZE && last
        ? this.cursors.encode({ createdAt: last.createdAtText, id: last.id }, scope)
        : null;
    return { items: items.map(toDeliveryView), nextCursor };
  }

  /** Sends a delivery again now: same payload and delivery id, a fresh `sentAt` and signature. */
  async redeliver(userId: string, id: string): Promise<{ id: string }> {
    const delivery = await this.webhooks.findUserDelivery(userId, id);
    if (!delivery) throw new NotFoundError('delivery not found');
    // A pending delivery already has its retries scheduled; a second chain would send it twice.
    const round = canRedeliver(delivery.status) ? await this.webhooks.markPending(delivery.id) : null;
    if (round === null) throw new ConflictError('delivery is still pending');
    // Pending in Postgres first: if Redis is away, the worker's sweeper enqueues it later.
    await this.queue
      .deliver(delivery.id, round)
      .catch((error: unknown) =>
        this.logger.warn(
          { err: error, deliveryId: delivery.id },
          'enqueue failed; the sweeper will enqueue it',
        ),
      );
    return { id: delivery.id };
  }

  /** Absolute http(s); outside development and test, never a private or metadata address. */
  private async assertDeliverable(url: string): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new BadRequestError('url must be an absolute http or https URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new BadRequestError('url must be an absolute http or https URL');
    if (this.config.webhooks.allowPrivateUrls) return;
    const addresses = await resolveAll(parsed.hostname).catch(() => {
      throw new BadRequestError('url host does not resolve');
    });
    if (addresses.some(isBlockedAddress))
      throw new BadRequestError('url must not point to a loopback, private, link-local or metadata address');
  }
}
