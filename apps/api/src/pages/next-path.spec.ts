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

  it('percent-encodes characters beyond ASCII, so the path is a valid Location header', () => {
    expect(safeNextPath('/€')).toBe('/%E2%82%AC');
    expect(safeNextPath('/consent?state=é&x=%3A')).toBe('/consent?state=%C3%A9&x=%3A');
    expect(safeNextPath('/\u0085x')).toBe('/%C2%85x');
    expect(safeNextPath('/\ud800')).toBe('/%EF%BF%BD');
    expect(safeNextPath('/a😀')).toBe('/a%F0%9F%98%80');
  });

  it('refuses a path whose encoding grows past the cap', () => {
    expect(safeNextPath('/'.padEnd(1500, '€'))).toBeNull();
  });

  it('refuses what is not a string', () => {
    expect(safeNextPath(['/a', '/b'])).toBeNull();
    expect(safeNextPath(undefined)).toBeNull();
  });
});
