import { describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { signBody, verifyBodySignature } from '../../../libs/domain/src/signature.js';
import { signatureOf, SignatureVerificationError, verifyEvent, verifySignature } from './signature.js';

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';
const NOW = Date.parse('2026-11-20T10:00:04.512Z');
const BODY = JSON.stringify({
  type: 'evaluation.completed',
  eventId: '3f1c9a6e-2b7d-4c1e-9f0a-6d2e8b4a7c51',
  deliveryId: 'b8e0d4f2-71a3-4f6b-a2c9-0e5d3f7b1a86',
  sentAt: '2026-11-20T10:00:04.512Z',
  evaluation: { id: 'c2a7e915-4d08-4b3f-8e61-9f0b2d5c7a34', status: 'accept', note: 'café ✓' },
});

describe('signatureOf', () => {
  it("is the service's signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the whole secret>", () => {
    expect(signatureOf(SECRET, BODY)).toBe(signBody(SECRET, BODY));
    expect(signatureOf(SECRET, Buffer.from(BODY))).toBe(
      `sha256=${createHmac('sha256', SECRET).update(Buffer.from(BODY, 'utf8')).digest('hex')}`,
    );
    expect(verifyBodySignature(SECRET, BODY, signatureOf(SECRET, BODY))).toBe(true);
  });

  it('refuses a parsed body: the signature is over the bytes received', () => {
    expect(() => signatureOf(SECRET, JSON.parse(BODY))).toThrow(/raw body/);
  });
});

describe('verifySignature', () => {
  const header = signBody(SECRET, BODY);

  it('accepts the signature of the exact bytes, as a string or bytes', () => {
    expect(verifySignature(SECRET, BODY, header)).toBe(true);
    expect(verifySignature(SECRET, new Uint8Array(Buffer.from(BODY)), header)).toBe(true);
  });

  it('refuses a tampered body, another secret, or a re-serialized body', () => {
    expect(verifySignature(SECRET, BODY.replace('accept', 'reject'), header)).toBe(false);
    expect(verifySignature(`${SECRET}x`, BODY, header)).toBe(false);
    expect(verifySignature(SECRET, JSON.stringify(JSON.parse(BODY), null, 2), header)).toBe(false);
  });

  it('refuses a missing, repeated, truncated, upper-case or unprefixed header', () => {
    for (const bad of [
      undefined,
      null,
      '',
      [header, header],
      header.slice(0, -1),
      header.toUpperCase(),
      header.slice('sha256='.length),
      `${header}0`,
    ])
      expect(verifySignature(SECRET, BODY, bad)).toBe(false);
  });
});

describe('verifyEvent', () => {
  const header = signBody(SECRET, BODY);

  it('returns the parsed event once the signature and sentAt pass', () => {
    const event = verifyEvent(SECRET, Buffer.from(BODY), header, { now: NOW + 1000 });
    expect(event.type).toBe('evaluation.completed');
  });

  it('throws `signature` before parsing anything', () => {
    const error = captured(() => verifyEvent(SECRET, '{not json', 'sha256=00', { now: NOW }));
    expect(error).toMatchObject({ reason: 'signature', message: 'invalid signature' });
  });

  it('throws `stale` for a sentAt older than the tolerance (5 minutes by default), or unreadable', () => {
    expect(() => verifyEvent(SECRET, BODY, header, { now: NOW + 5 * 60_000 })).not.toThrow();
    expect(captured(() => verifyEvent(SECRET, BODY, header, { now: NOW + 5 * 60_000 + 1 }))).toMatchObject({
      reason: 'stale',
    });
    expect(
      captured(() => verifyEvent(SECRET, BODY, header, { now: NOW + 2000, toleranceMs: 1000 })),
    ).toMatchObject({ reason: 'stale' });
    const odd = JSON.stringify({ type: 'endpoint.test', sentAt: { at: 1 } });
    expect(captured(() => verifyEvent(SECRET, odd, signBody(SECRET, odd), { now: NOW }))).toMatchObject({
      reason: 'stale',
    });
  });

  it('accepts a quality alert, which has no sentAt', () => {
    const alert = JSON.stringify({ type: 'quality.alert', alert: { id: 'a' } });
    expect(verifyEvent(SECRET, alert, signBody(SECRET, alert)).type).toBe('quality.alert');
  });

  it('throws `body` for a signed body that is not an event', () => {
    for (const body of ['[1]', 'null', '{"no":"type"}', 'not json'])
      expect(captured(() => verifyEvent(SECRET, body, signBody(SECRET, body)))).toMatchObject({
        reason: 'body',
      });
  });
});

function captured(run: () => unknown): SignatureVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SignatureVerificationError);
    return error as SignatureVerificationError;
  }
  throw new Error('expected a SignatureVerificationError');
}
