import { describe, expect, it } from '@jest/globals';
import { sourceList } from './source-filter.js';

describe('sourceList', () => {
  it('reads one value, a repeated parameter, commas, and both', () => {
    expect(sourceList('api')).toEqual(['api']);
    expect(sourceList(['api', 'webhook'])).toEqual(['api', 'webhook']);
    expect(sourceList('api,webhook,mcp')).toEqual(['api', 'webhook', 'mcp']);
    expect(sourceList(['api,mcp', 'webhook'])).toEqual(['api', 'mcp', 'webhook']);
  });

  it('drops duplicates and keeps the first order', () => {
    expect(sourceList(['mcp', 'api,mcp', 'api'])).toEqual(['mcp', 'api']);
  });

  it('keeps empty parts, for the rules to refuse', () => {
    expect(sourceList('')).toEqual(['']);
    expect(sourceList('api,')).toEqual(['api', '']);
  });

  it('hands on a value that is not text as it came', () => {
    const odd = { a: 1 };
    expect(sourceList(odd)).toBe(odd);
    expect(sourceList(['api', 3])).toEqual(['api', 3]);
  });
});
