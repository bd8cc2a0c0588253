import { describe, expect, it } from '@jest/globals';
import { crc32, generateApiKeySecret, hashSecret, isWellFormedApiKey } from './api-key-format.js';

describe('API key format', () => {
  it('generates distinct, well-formed, scanner-friendly secrets', () => {
    const secrets = new Set(Array.from({ length: 200 }, () => generateApiKeySecret()));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) {
      expect(secret).toMatch(/^tj_live_[0-9A-Za-z]{49}$/);
      expect(isWellFormedApiKey(secret)).toBe(true);
    }
  });

  it('rejects a secret whose checksum does not match (one character changed)', () => {
    const secret = generateApiKeySecret();
    const i = 20;
    const typo = secret.slice(0, i) + (secret[i] === 'a' ? 'b' : 'a') + secret.slice(i + 1);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(secret.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey('tj_test_' + secret.slice(8))).toBe(false);
    expect(isWellFormedApiKey(secret.replace(/.$/, '!'))).toBe(false);
  });

  it('computes the standard CRC-32 and SHA-256', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
