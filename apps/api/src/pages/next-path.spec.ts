import { describe, expect, it } from '@jest/globals';
import { safeNextPath } from './next-path.js';

describe('safeNextPath', () => {
  it('keeps paths on this origin', () => {
    expect(safeNextPath('/oauth/authorize?client_id=x&state=y')).toBe('/oauth/authorize?client_id=x&state=y');
    expect(safeNextPath('/consent?scope=packs%3Aread')).toBe('/consent?scope=packs%3Aread');
  });

  it.each([
    'https://evil.example/',
    '//evil.example/x',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /x',
    'javascript:alert(1)',
    '',
    '/'.padEnd(4001, 'a'),
  ])('refuses %j', (next) => {
    expect(safeNextPath(next)).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeNextPath(['/a', '/b'])).toBeNull();
    expect(safeNextPath(undefined)).toBeNull();
  });
});
