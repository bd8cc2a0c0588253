import { describe, expect, it } from '@jest/globals';
import { BadRequestError } from '@app/domain';
import { SignedCursor } from '@app/persistence';
import { PositionCursor } from './position-cursor.js';

const SECRET = 'a test secret that is long enough';

describe('PositionCursor', () => {
  const cursors = new PositionCursor(SECRET);

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
    // Signed with the same secret and scope as PositionCursor uses, so only the value is wrong.
    const signer = new SignedCursor(SECRET);
    for (const values of [[-1], [1.5], ['1'], [1, 2], []]) {
      const cursor = signer.seal(values, 'position\nscope');
      expect(() => cursors.decode(cursor, 'scope')).toThrow(new BadRequestError('invalid cursor'));
    }
  });
});
