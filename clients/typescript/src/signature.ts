import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './schema.js';

type Schemas = components['schemas'];

/** A quality alert sent to your endpoint (docs/alerts.md): no `sentAt`, the delivery id in its header. */
export interface QualityAlertEvent {
  type: 'quality.alert';
  alert: Schemas['AlertDto'];
}

/** Every request the service POSTs to your completion endpoint, told apart by `type`. */
export type ServiceEvent =
  | Schemas['EvaluationCompletion']
  | Schemas['SimulationCompletion']
  | Schemas['EndpointTestEvent']
  | QualityAlertEvent;

/** The header that carries the signature. Node lower-cases header names: `x-service-signature`. */
export const SIGNATURE_HEADER = 'X-Service-Signature';
/** How old a `sentAt` may be, by default: every real attempt is signed afresh, so older is a replay. */
export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

/** Why a request was refused: answer 401 for `signature`, 400 for the others. */
export class SignatureVerificationError extends Error {
  override readonly name = 'SignatureVerificationError';

  constructor(
    readonly reason: 'signature' | 'stale' | 'body',
    message: string,
  ) {
    super(message);
  }
}

type RawBody = string | Uint8Array;

function assertRaw(rawBody: unknown): asserts rawBody is RawBody {
  if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) {
    // The commonest mistake: verifying a body a JSON parser already turned into an object.
    throw new TypeError(
      'the raw body is needed (a Buffer or string of the bytes received), not the parsed JSON',
    );
  }
}

/** `sha256=<lowercase hex HMAC-SHA256 of the raw body>`, keyed with the whole `whsec_…` secret. */
export function signatureOf(secret: string, rawBody: RawBody): string {
  assertRaw(rawBody);
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Whether `header` (the `X-Service-Signature` value as received) signs `rawBody` (the exact bytes
 * received, before any JSON parsing) with `secret`. Constant-time; false for a missing, repeated
 * or malformed header.
 */
export function verifySignature(
  secret: string,
  rawBody: RawBody,
  header: string | string[] | null | undefined,
): boolean {
  const expected = Buffer.from(signatureOf(secret, rawBody));
  if (typeof header !== 'string') return false;
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface VerifyEventOptions {
  /** A `sentAt` older than this is refused (default 5 minutes). Keep your clock in sync. */
  toleranceMs?: number;
  /** The time to judge `sentAt` by, in ms (default now). */
  now?: number;
}

/**
 * Verifies the signature over the raw body, then parses it, then refuses a stale `sentAt` (events
 * that carry one; quality alerts do not). Throws a `SignatureVerificationError`. Still yours to do:
 * de-duplicate by `deliveryId` (X-Service-Delivery-Id), and answer 2xx quickly.
 */
export function verifyEvent(
  secret: string,
  rawBody: RawBody,
  header: string | string[] | null | undefined,
  { toleranceMs = DEFAULT_TOLERANCE_MS, now = Date.now() }: VerifyEventOptions = {},
): ServiceEvent {
  if (!verifySignature(secret, rawBody, header))
    throw new SignatureVerificationError('signature', 'invalid signature');
  let event: unknown;
  try {
    event = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'));
  } catch {
    throw new SignatureVerificationError('body', 'the body is not JSON');
  }
  if (typeof event !== 'object' || event === null || typeof (event as { type?: unknown }).type !== 'string')
    throw new SignatureVerificationError('body', 'the body is not an event');
  const { sentAt } = event as { sentAt?: unknown };
  if (sentAt !== undefined) {
    const age = typeof sentAt === 'string' ? now - Date.parse(sentAt) : NaN;
    if (!(age <= toleranceMs)) throw new SignatureVerificationError('stale', 'sentAt is too old');
  }
  return event as ServiceEvent;
}
