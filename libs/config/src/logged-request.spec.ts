import { describe, expect, it } from '@jest/globals';
import { redactUrlSecrets, serializeRequest } from './logged-request.js';

describe('redactUrlSecrets', () => {
  it.each([
    ['/mcp?access_token=tj_at_live', '/mcp?access_token=[redacted]'],
    [
      '/oauth/authorize?client_id=c&state=s1&code=c1',
      '/oauth/authorize?client_id=c&state=[redacted]&code=[redacted]',
    ],
    ['/x?token=a&token=b&keep=1', '/x?token=[redacted]&token=[redacted]&keep=1'],
    ['/x?Access_Token=a&CLIENT_SECRET=b', '/x?Access_Token=[redacted]&CLIENT_SECRET=[redacted]'],
    ['/x?%61ccess%5Ftoken=a&refresh%5ftoken=b', '/x?%61ccess%5Ftoken=[redacted]&refresh%5ftoken=[redacted]'],
    [
      '/x?code_verifier=a=b=c&code[]=d&state[x]=e',
      '/x?code_verifier=[redacted]&code[]=[redacted]&state[x]=[redacted]',
    ],
    ['/x?token=&code', '/x?token=[redacted]&code'],
    // The sign-in page carries the whole authorization request, its state included.
    ['/login?next=%2Fconsent%3Fstate%3Ds1&x=1', '/login?next=[redacted]&x=1'],
  ])('%s', (url, expected) => {
    expect(redactUrlSecrets(url)).toBe(expected);
  });

  it('leaves other parameters, paths and URLs without a query as they are', () => {
    expect(redactUrlSecrets('/api/evaluations?limit=5&codes=1&mytoken=2')).toBe(
      '/api/evaluations?limit=5&codes=1&mytoken=2',
    );
    expect(redactUrlSecrets('/code/token')).toBe('/code/token');
  });

  it('never throws on malformed percent-encoding', () => {
    expect(redactUrlSecrets('/x?%E0%A4%A=1&%=2&token%zz=3&code=%ff')).toBe(
      '/x?%E0%A4%A=1&%=2&token%zz=3&code=[redacted]',
    );
  });
});

describe('serializeRequest', () => {
  it('writes a Fastify request with its URL redacted', () => {
    const fastifyRequest = {
      id: 'r1',
      method: 'POST',
      url: '/mcp?access_token=tj_at_x',
      host: 'api.local',
      ip: '127.0.0.1',
      socket: { remotePort: 5000 },
      headers: { authorization: 'Bearer tj_at_x' },
    };
    expect(serializeRequest(fastifyRequest)).toEqual({
      method: 'POST',
      url: '/mcp?access_token=[redacted]',
      host: 'api.local',
      remoteAddress: '127.0.0.1',
      remotePort: 5000,
    });
  });

  it("writes pino-http's request without its headers or parsed query", () => {
    const pinoHttpRequest = {
      id: 7,
      method: 'GET',
      url: '/oauth/authorize?code=c',
      query: { code: 'c' },
      headers: { host: 'api.local', referer: 'https://x/?code=c' },
      remoteAddress: '::1',
      remotePort: 1,
    };
    const text = JSON.stringify(serializeRequest(pinoHttpRequest));
    expect(JSON.parse(text)).toEqual({
      method: 'GET',
      url: '/oauth/authorize?code=[redacted]',
      host: 'api.local',
      remoteAddress: '::1',
      remotePort: 1,
    });
  });
});
