import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '@app/domain';
import { PositionCursor } from './position-cursor.js';

describe('PositionCursor', () => {
  const cursors = new PositionCursor('a test secret that is long enough');

  it('round-trips a position within its scope', () => {
    for (const position of [0, 99, 249]) {
      expect(cursors.decode(cursors.encode(position, 'user:dataset'), 'user:dataset')).toBe(position);
    }
  });

  it('refuses a cursor from another scope, another secret, or tampered', () => {
    const cursor = cursors.encode(99, 'user:dataset');
    const [, signature] = cursor.split('.');
    const forged = `${Buffer.from('[199]').toString('base64url')}.${signature}`;
    for (const [bad, scope] of [
      [cursor, 'user:other-dataset'],
      [new PositionCursor('another secret, also long enough').encode(99, 'user:dataset'), 'user:dataset'],
      [forged, 'user:dataset'],
      ['', 'user:dataset'],
      ['abc', 'user:dataset'],
      [`${cursor}.x`, 'user:dataset'],
    ]) {
      expect(() => cursors.decode(bad, scope)).toThrow(new BadRequestError('invalid cursor'));
    }
  });

  it('refuses a correctly signed payload that is not a non-negative integer', () => {
    for (const payload of ['[-1]', '[1.5]', '["1"]', '[1,2]', '{}', 'not json']) {
      const cursor = signWith(cursors, Buffer.from(payload).toString('base64url'), 'scope');
      expect(() => cursors.decode(cursor, 'scope')).toThrow(new BadRequestError('invalid cursor'));
    }
  });
});

/** Signs an arbitrary payload with the codec's private signer (tests only). */
function signWith(codec: PositionCursor, payload: string, scope: string): string {
  const sign = (codec as unknown as { sign(payload: string, scope: string): string }).sign.bind(codec);
  return `${payload}.${sign(payload, scope)}`;
}
