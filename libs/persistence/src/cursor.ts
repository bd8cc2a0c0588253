import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError, isUuid } from '@app/domain';

/** A position in a newest-first list: the row's creation time (as Postgres prints it) and id. */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)$/;

/**
 * Opaque signed cursors: base64url JSON values plus an HMAC over them and their scope (user and
 * list), so a cursor that was tampered with, or that belongs to another user or list, is refused
 * with 400 `invalid cursor`.
 */
export class SignedCursor {
  constructor(private readonly secret: string) {}

  seal(values: unknown[], scope: string): string {
    const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
    return `${payload}.${this.sign(payload, scope)}`;
  }

  open(cursor: string, scope: string): unknown[] {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw new BadRequestError('invalid cursor');
    const expected = Buffer.from(this.sign(payload, scope));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given))
      throw new BadRequestError('invalid cursor');
    try {
      const values: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      if (Array.isArray(values)) return values;
    } catch {
      // falls through to the refusal below
    }
    throw new BadRequestError('invalid cursor');
  }

  private sign(payload: string, scope: string): string {
    return createHmac('sha256', this.secret).update(`${scope}\n${payload}`).digest('base64url').slice(0, 22);
  }
}

/** Keyset cursors for newest-first lists: (created_at, id). */
export class CursorCodec {
  private readonly cursor: SignedCursor;

  constructor(secret: string) {
    this.cursor = new SignedCursor(secret);
  }

  encode(position: KeysetPosition, scope: string): string {
    return this.cursor.seal([position.createdAt, position.id], scope);
  }

  decode(cursor: string, scope: string): KeysetPosition {
    const [createdAt, id] = this.cursor.open(cursor, scope);
    if (typeof createdAt !== 'string' || !TIMESTAMP.test(createdAt) || !isUuid(id))
      throw new BadRequestError('invalid cursor');
    return { createdAt, id };
  }
}

/** A position in a list ordered by a value, then newest first: (value, created_at, id). */
export interface ValuedPosition extends KeysetPosition {
  value: number;
}

/** Keyset cursors for value-ordered lists (the review queue's `order=value`): (value, created_at, id). */
export class ValueCursorCodec {
  private readonly cursor: SignedCursor;

  constructor(secret: string) {
    this.cursor = new SignedCursor(secret);
  }

  encode(position: ValuedPosition, scope: string): string {
    return this.cursor.seal([position.value, position.createdAt, position.id], scope);
  }

  decode(cursor: string, scope: string): ValuedPosition {
    const [value, createdAt, id] = this.cursor.open(cursor, scope);
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      typeof createdAt !== 'string' ||
      !TIMESTAMP.test(createdAt) ||
      !isUuid(id)
    )
      throw new BadRequestError('invalid cursor');
    return { value, createdAt, id };
  }
}
