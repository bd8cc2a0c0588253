import { describe, expect, it } from '@jest/globals';
import { isRegisteredRedirectUri } from './redirect-uris.js';

describe('isRegisteredRedirectUri', () => {
  const registered = ['http://127.0.0.1:7777/cb', 'https://app.example.com/cb', 'http://localhost/cb?x=1'];

  it.each([
    'http://127.0.0.1:7777/cb',
    'http://127.0.0.1:1234/cb',
    'http://127.0.0.1/cb',
    'https://app.example.com/cb',
    'http://localhost:50000/cb?x=1',
  ])('accepts %s', (uri) => {
    expect(isRegisteredRedirectUri(uri, registered)).toBe(true);
  });

  it.each([
    ['userinfo', 'http://user:pw@127.0.0.1:7777/cb'],
    ['a fragment', 'http://127.0.0.1:7777/cb#frag'],
    ['dot segments', 'http://127.0.0.1:7777/x/../cb'],
    ['another spelling of the host', 'http://127.1:7777/cb'],
    ['another loopback host', 'http://localhost:7777/cb'],
    ['another path', 'http://127.0.0.1:7777/cb/'],
    ['another query', 'http://localhost:5000/cb?x=2'],
    ['a port out of range', 'http://127.0.0.1:70000/cb'],
    ['a zero-padded port', 'http://127.0.0.1:07777/cb'],
    ['an empty port', 'http://127.0.0.1:/cb'],
    ['upper case', 'HTTP://127.0.0.1:7777/cb'],
    ['a fragment on an https URI', 'https://app.example.com/cb#x'],
    ['a port on an https URI', 'https://app.example.com:8443/cb'],
  ])('refuses %s', (_name, uri) => {
    expect(isRegisteredRedirectUri(uri, registered)).toBe(false);
  });
});
