import { createHmac, timingSafeEqual } from 'node:crypto';

/** `sha256=<lowercase hex HMAC-SHA256 of the exact body bytes>`, keyed with the endpoint's secret. */
export function signBody(secret: string, body: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Constant-time check of an `X-Service-Signature` header against the body. */
export function verifyBodySignature(secret: string, body: string | Buffer, header: string): boolean {
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim());
  return expected.length === given.length && timingSafeEqual(expected, given);
}
