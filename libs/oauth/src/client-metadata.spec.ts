import { describe, expect, it } from '@jest/globals';
import { CLIENT_METADATA, hasControlOrFormatCharacters } from './client-metadata.js';

describe('client metadata shown to users', () => {
  it.each([
    ['a bidi override', 'Claude Desktop \u202Epot\u202C'],
    ['a bidi isolate', 'Claude \u2066Desktop\u2069'],
    ['a zero-width space', 'Claude\u200BDesktop'],
    ['a byte order mark', '\uFEFFClaude Desktop'],
    ['NUL', 'Claude\u0000'],
    ['an escape', 'Claude \u001b[31m'],
    ['a newline', 'Claude\nDesktop'],
  ])('refuses %s', (_name, value) => {
    expect(hasControlOrFormatCharacters(value)).toBe(true);
    const parsed = CLIENT_METADATA.safeParse({ redirect_uris: ['https://a.example/cb'], client_name: value });
    expect(parsed.success).toBe(false);
  });

  it.each(['Claude Desktop', 'Café Ünïcode 日本語', 'Rocket 🚀 client'])('accepts %s', (value) => {
    expect(hasControlOrFormatCharacters(value)).toBe(false);
  });

  it('checks every displayed string, client_uri and logo_uri included', () => {
    for (const field of ['client_uri', 'logo_uri', 'software_id', 'software_version']) {
      const parsed = CLIENT_METADATA.safeParse({
        redirect_uris: ['https://a.example/cb'],
        [field]: 'https://a.example/\u202Egnp.exe',
      });
      expect(parsed.success).toBe(false);
    }
  });
});
