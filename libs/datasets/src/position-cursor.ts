import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError } from '@app/domain';

/**
 * Opaque cursors over an integer position (a dataset's ticket order). Like the keyset cursors of
 * `@app/persistence`, the position is signed with its scope (user and dataset), so a tampered
 * cursor, or one from another user or dataset, is refused with 400 `invalid cursor`.
 */
export class PositionCursor {
  constructor(private readonly secret: string) {}

  encode(position: number, scope: string): string {
    const payload = Buffer.from(JSON.stringify([position])).toString('base64url');
    return `${payload}.${this.sign(payload, scope)}`;
  }

  decode(cursor: string, scope: string): number {
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
    const position: unknown = Array.isArray(parsed) && parsed.length === 1 ? parsed[0] : undefined;
    if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0)
      throw new BadRequestError('invalid cursor');
    return position;
  }

  private sign(payload: string, scope: string): string {
    return createHmac('sha256', this.secret)
      .update(`position\n${scope}\n${payload}`)
      .digest('base64url')
      .slice(0, 22);
  }
}
