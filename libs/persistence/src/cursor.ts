import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError, isUuid } from '@app/domain';

/** A position in a newest-first list: the row's creation time (as Postgres prints it) and id. */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

/**
 * Opaque keyset cursors. The position is signed together with its scope (user and list), so a
 * cursor that was tampered with, or that belongs to another user or list, is refused with 400.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  encode(position: KeysetPosition, scope: string): string {
    const payload = Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
    return `${payload}.${this.sign(payload, scope)}`;
  }

  decode(cursor: string, scope: string): KeysetPosition {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw new BadRequestError('invalid cursor');
    const expected = Buffer.from(this.sign(payload, scope));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new BadRequestError('invalid cursor');
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw new BadRequestError('invalid cursor');
    }
    if (
      !Array.isArray(parsed) ||
      typeof parsed[0] !== 'string' ||
      !TIMESTAMP.test(parsed[0]) ||
      !isUuid(parsed[1])
    ) {
      throw new BadRequestError('invalid cursor');
    }
    return { createdAt: parsed[0], id: parsed[1] };
  }

  private sign(payload: string, scope: string): string {
    return createHmac('sha256', this.secret).update(`${scope}\n${payload}`).digest('base64url').slice(0, 22);
  }
}
