import { describe, expect, it } from '@jest/globals';
import { IsInt, IsString } from 'class-validator';
import { undeclaredFieldIssues } from './declared-fields.js';

class QueryDto {
  @IsString()
  packId?: string;
}

class ChildQueryDto extends QueryDto {
  @IsInt()
  limit?: number;
}

/** A parsed query string: no prototype, so `__proto__` is an own key like any other. */
const query = (fields: Record<string, unknown>) => Object.assign(Object.create(null), fields);

describe('undeclaredFieldIssues', () => {
  it('accepts declared fields, inherited ones included', () => {
    expect(undeclaredFieldIssues(query({ packId: 'p', limit: '5' }), ChildQueryDto)).toEqual([]);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype', 'valueOf', 'foo'])(
    'refuses %s like any unknown field',
    (key) => {
      const value = query({ packId: 'p' });
      Object.defineProperty(value, key, { value: '1', enumerable: true });
      expect(undeclaredFieldIssues(value, QueryDto)).toEqual([
        { path: key, message: `property ${key} should not exist` },
      ]);
    },
  );

  it('sees `__proto__` as an own key of a parsed JSON body', () => {
    const body = JSON.parse('{"__proto__": {"packId": "p"}, "constructor": 1}');
    expect(undeclaredFieldIssues(body, QueryDto).map((issue) => issue.path)).toEqual([
      '__proto__',
      'constructor',
    ]);
  });

  it('words an undeclared null as the pipe does', () => {
    expect(undeclaredFieldIssues(query({ extra: null }), QueryDto)).toEqual([
      { path: 'extra', message: 'extra must not be null' },
    ]);
  });
});
