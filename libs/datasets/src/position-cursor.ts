import { BadRequestError } from '@app/domain';
import { SignedCursor } from '@app/persistence';

/**
 * Opaque cursors over an integer position (a dataset's ticket order), signed with their scope
 * (user and dataset) like the keyset cursors, so foreign or tampered ones are 400 `invalid cursor`.
 */
export class PositionCursor {
  private readonly cursor: SignedCursor;

  constructor(secret: string) {
    this.cursor = new SignedCursor(secret);
  }

  encode(position: number, scope: string): string {
    return this.cursor.seal([position], `position\n${scope}`);
  }

  decode(cursor: string, scope: string): number {
    const values = this.cursor.open(cursor, `position\n${scope}`);
    const position = values.length === 1 ? values[0] : undefined;
    if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0)
      throw new BadRequestError('invalid cursor');
    return position;
  }
}
