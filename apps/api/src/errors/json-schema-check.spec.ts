import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { codePoints, createAjv, withTypeUnions } from './json-schema-check.js';

const ajv = createAjv({ allErrors: false });

describe('string lengths in code points', () => {
  it('counts a surrogate pair once and a lone surrogate once, as JSON Schema does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(codePoints(text)).toBe([...text].length);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('checks minLength and maxLength by code points, also where UTF-16 length and code points differ', () => {
    const bounded = ajv.compile({ type: 'string', minLength: 2, maxLength: 3 });
    const cases: [string, boolean][] = [
      ['a', false],
      ['ab', true],
      ['abc', true],
      ['abcd', false],
      ['😀', false],
      ['😀😀', true],
      ['😀😀😀', true],
      ['😀😀😀😀', false],
      ['\ud800\ud800\ud800', true],
      ['a😀b😀', false],
    ];
    for (const [text, valid] of cases) expect([text, bounded(text)]).toEqual([text, valid]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 8 }), (text) => {
        expect(bounded(text)).toBe(codePoints(text) >= 2 && codePoints(text) <= 3);
      }),
      { numRuns: 2000, seed: 12 },
    );
  });
});

describe('unions of bare types', () => {
  it('become one type list, beside the branches with constraints', () => {
    const zodNullableUnion = {
      anyOf: [
        { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'number' }, { type: 'boolean' }] },
        { type: 'null' },
      ],
    };
    expect(withTypeUnions({ type: 'object', additionalProperties: zodNullableUnion })).toEqual({
      type: 'object',
      additionalProperties: {
        anyOf: [{ type: 'string', maxLength: 5 }, { type: ['number', 'boolean', 'null'] }],
      },
    });
    const check = ajv.compile(withTypeUnions(zodNullableUnion));
    for (const [value, valid] of [
      ['abc', true],
      ['abcdef', false],
      [1, true],
      [null, true],
      [[], false],
      [{}, false],
    ])
      expect([value, check(value)]).toEqual([value, valid]);
  });

  it('keeps a branch whole when it says more than anyOf', () => {
    const either = { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(withTypeUnions({ anyOf: [either, { type: 'null' }] })).toEqual({
      anyOf: [either, { type: ['null'] }],
    });
  });
});
