import { createHash } from 'node:crypto';

/**
 * A throttle counter's name for an email or an address: its SHA-256, so every key has one length
 * whatever a client sends (a 500 kB email once made a 500 kB key, held for the whole window).
 */
export function throttleKey(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
