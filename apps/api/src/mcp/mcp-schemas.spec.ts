import { describe, expect, it } from '@jest/globals';
import { Ajv } from 'ajv';
import { toJsonSchema } from './mcp-schemas.js';

const components = {
  MapDto: { type: 'object', properties: { labels: { type: 'integer' } }, required: ['labels'] },
};

describe('toJsonSchema', () => {
  it('lets a nullable reference be null or the referenced object (swagger writes it as type object beside allOf)', () => {
    const schema = toJsonSchema(
      { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/MapDto' }] },
      components,
    );
    const validate = new Ajv().compile(schema);
    expect(validate(null)).toBe(true);
    expect(validate({ labels: 3 })).toBe(true);
    expect(validate({})).toBe(false);
    expect(validate('x')).toBe(false);
  });

  it('adds null to the type of a nullable plain type, and to its enum', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, enum: ['a'] }, {})).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
  });
});
