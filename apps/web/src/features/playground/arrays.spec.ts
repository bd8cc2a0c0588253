import { describe, expect, it } from '@jest/globals';
import { removeAt, replaceAt } from './arrays';

describe('replaceAt and removeAt', () => {
  it('return copies with one item changed', () => {
    const items = ['a', 'b', 'c'];
    expect(replaceAt(items, 1, 'x')).toEqual(['a', 'x', 'c']);
    expect(removeAt(items, 0)).toEqual(['b', 'c']);
    expect(items).toEqual(['a', 'b', 'c']);
  });
});
