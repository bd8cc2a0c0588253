import { describe, expect, it } from '@jest/globals';
import {
  cacheSeconds,
  isClientIdUrl,
  MetadataDocumentError,
  parseClientIdUrl,
  parseMetadataDocument,
} from './client-metadata-document.js';

const ID = 'https://app.example.com/oauth/client.json';
const document = (fields: Record<string, unknown> = {}) => ({
  client_id: ID,
  client_name: 'Example assistant',
  redirect_uris: ['http://127.0.0.1:3334/callback'],
  token_endpoint_auth_method: 'none',
  ...fields,
});
const reason = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    if (error instanceof MetadataDocumentError) return error.reason;
    throw error;
  }
  return 'accepted';
};

describe('client ID metadata document URLs', () => {
  it('tells a URL from a registered client id', () => {
    expect(isClientIdUrl(ID)).toBe(true);
    expect(isClientIdUrl('http://a.example/x')).toBe(true);
    expect(isClientIdUrl('mcp_abc')).toBe(false);
  });

  it.each([
    ['https with a path', ID],
    ['a query', 'https://app.example.com/client?v=2'],
    ['a port', 'https://app.example.com:8443/client'],
  ])('accepts %s', (_name, url) => {
    expect(parseClientIdUrl(url).href).toBe(url);
  });

  it.each([
    ['http', 'http://app.example.com/client', 'must be an https URL'],
    ['a fragment', 'https://app.example.com/client#x', 'must not have a fragment'],
    ['an empty fragment', 'https://app.example.com/client#', 'must not have a fragment'],
    ['credentials', 'https://user:pw@app.example.com/client', 'must not carry credentials'],
    ['a user only', 'https://user@app.example.com/client', 'must not carry credentials'],
    ['a dot segment', 'https://app.example.com/a/./client', 'must not have . or .. path segments'],
    ['a dot-dot segment', 'https://app.example.com/a/../client', 'must not have . or .. path segments'],
    ['an encoded dot-dot', 'https://app.example.com/a/%2E%2e/client', 'must not have . or .. path segments'],
    ['no path', 'https://app.example.com', 'must have a path (https://host/path)'],
    ['the root path', 'https://app.example.com/', 'must have a path (https://host/path)'],
    ['an upper-case host', 'https://App.Example.com/client', 'must be written in its normal form'],
    ['a default port', 'https://app.example.com:443/client', 'must be written in its normal form'],
    ['no URL at all', 'https://', 'is not a valid URL'],
    ['a long URL', `https://app.example.com/${'a'.repeat(2000)}`, 'is too long'],
  ])('refuses %s', (_name, url, why) => {
    expect(reason(() => parseClientIdUrl(url))).toContain(`the client ID ${why}`);
  });
});

describe('client ID metadata documents', () => {
  it('accepts a public client, none by default', () => {
    const { token_endpoint_auth_method: _method, ...withoutMethod } = document();
    expect(parseMetadataDocument(ID, withoutMethod).token_endpoint_auth_method).toBe('none');
    expect(parseMetadataDocument(ID, document()).redirect_uris).toEqual(['http://127.0.0.1:3334/callback']);
  });

  it.each([
    ['an array', [document()], 'is not a JSON object'],
    ['null', null, 'is not a JSON object'],
    ['a string', 'x', 'is not a JSON object'],
    ['another client_id', document({ client_id: `${ID}x` }), 'names another client_id than its URL'],
    ['no client_id', document({ client_id: undefined }), 'names another client_id than its URL'],
    ['a secret', document({ client_secret: 's' }), 'must not hold a client_secret'],
    ['private_key_jwt', document({ token_endpoint_auth_method: 'private_key_jwt' }), 'does not support'],
    [
      'a shared secret method',
      document({ token_endpoint_auth_method: 'client_secret_basic' }),
      'must be none',
    ],
    ['no redirect URIs', document({ redirect_uris: [] }), "document's redirect_uris is invalid"],
    [
      'a redirect URI not a string',
      document({ redirect_uris: [1] }),
      "document's redirect_uris.0 is invalid",
    ],
    [
      'an http redirect URI',
      document({ redirect_uris: ['http://evil.example/cb'] }),
      'http only on a loopback',
    ],
    ['a bidi override in the name', document({ client_name: 'Claude \u202Epot' }), 'control or format'],
    ['an unknown scope', document({ scope: 'admin' }), 'unknown scope'],
    ['a name not a string', document({ client_name: 42 }), "document's client_name is invalid"],
  ])('refuses %s', (_name, body, why) => {
    expect(reason(() => parseMetadataDocument(ID, body))).toContain(why);
  });
});

describe('how long a document is kept', () => {
  it.each([
    [undefined, 300],
    ['public', 300],
    ['max-age=600', 600],
    ['public, max-age=120', 120],
    ['max-age=1', 60],
    ['max-age=86400', 3600],
    ['max-age=0', 0],
    ['no-store', 0],
    ['no-cache', 0],
    ['max-age=600, no-store', 0],
    ['Max-Age=600', 600],
    ['max-age=abc', 300],
  ])('Cache-Control %s: %i s', (header, seconds) => {
    expect(cacheSeconds(header)).toBe(seconds);
  });
});
