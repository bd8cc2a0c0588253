import { describe, expect, it } from '@jest/globals';
import { pathOf, queryOf, redactQuery, redactTarget, redactUrl, redisStatement } from './redact.js';

describe('trace redaction', () => {
  it('replaces every query value, whatever the parameter is called', () => {
    expect(redactQuery('next=%2Foauth%2Fauthorize%3Fstate%3Dabc&page=2&flag')).toBe(
      'next=[redacted]&page=[redacted]&flag',
    );
    expect(redactQuery('')).toBe('');
  });

  it('hides a parameter name that may itself be a token', () => {
    expect(redactQuery('tj_live_' + 'x'.repeat(49))).toBe('[redacted]=[redacted]');
    expect(redactQuery('a%20b=1')).toBe('[redacted]=[redacted]');
  });

  it('splits a request target into its path and its query', () => {
    expect(pathOf('/login?next=/x#frag')).toBe('/login');
    expect(pathOf('/api/packs')).toBe('/api/packs');
    expect(queryOf('/login?next=/x#frag')).toBe('next=/x');
    expect(queryOf('/login')).toBe('');
    expect(redactTarget('/login?next=/x&code=abc')).toBe('/login?next=[redacted]&code=[redacted]');
  });

  it('drops user info and query values from absolute URLs, and never records one it cannot parse', () => {
    expect(redactUrl('https://user:pass@hooks.example.com:8443/in?token=s3cret&x=1')).toBe(
      'https://[redacted]@hooks.example.com:8443/in?token=[redacted]&x=[redacted]',
    );
    expect(redactUrl('http://127.0.0.1:4000/v1/chat/completions')).toBe(
      'http://127.0.0.1:4000/v1/chat/completions',
    );
    expect(redactUrl('not a url?token=s3cret')).toBe('[redacted]');
  });

  it('records a Redis command by its name alone', () => {
    expect(redisStatement('evalsha')).toBe('evalsha');
  });
});
