import { describe, expect, it } from '@jest/globals';
import {
  findMalformedJson,
  findMalformedQuery,
  firstUnstorableCharacter,
  MAX_JSON_DEPTH,
} from './well-formed-input.js';

const nest = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('well-formed input', () => {
  it('accepts ordinary text, emoji (paired surrogates) and right-to-left marks', () => {
    for (const text of ['', 'plain', 'Grüße 😀 \u200f\u202eשלום', '\ud83d\ude00'])
      expect(firstUnstorableCharacter(text)).toBe(-1);
  });

  it('finds NUL and unpaired surrogates wherever they are', () => {
    expect(firstUnstorableCharacter('ab\u0000')).toBe(2);
    expect(firstUnstorableCharacter('a\ud800')).toBe(1);
    expect(firstUnstorableCharacter('\udc00a')).toBe(0);
    expect(firstUnstorableCharacter('\ud83d\ude00\ude00')).toBe(2);
  });

  it('names the path of a bad string or key, never the text', () => {
    const issue = findMalformedJson({ ticket: { messages: [{ text: 'ok' }, { text: 'secret\u0000' }] } });
    expect(issue).toEqual({ path: 'ticket.messages.1.text', message: expect.stringContaining('NUL') });
    expect(findMalformedJson({ metadata: { 'k\ud800': 1 } })).toEqual({
      path: 'metadata',
      message: expect.stringContaining('keys'),
    });
    expect(JSON.stringify(findMalformedJson({ a: 'secret\u0000' }))).not.toContain('secret');
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses more, without recursion`, () => {
    expect(findMalformedJson(nest(MAX_JSON_DEPTH))).toBeNull();
    expect(findMalformedJson(nest(MAX_JSON_DEPTH + 1))?.message).toMatch(/nested deeper/);
    expect(findMalformedJson(nest(200_000))?.message).toMatch(/nested deeper/);
  });

  it('checks query values, repeated ones included', () => {
    expect(findMalformedQuery({ a: 'x', b: ['y', 'z\u0000'] })).toEqual({
      path: 'b',
      message: expect.any(String),
    });
    expect(findMalformedQuery({ a: 'x' })).toBeNull();
  });
});
