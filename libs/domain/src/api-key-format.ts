import { createHash, randomBytes } from 'node:crypto';

/**
 * API key secrets look like `tj_live_<43 base62 chars of 32 random bytes><6 base62 chars of CRC32>`.
 * The fixed prefix lets secret scanners find leaked keys; the checksum lets them (and us) reject
 * a mistyped or made-up key without a database look-up.
 */
export const API_KEY_PREFIX = 'tj_live_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BODY_LENGTH = 43;
const CHECKSUM_LENGTH = 6;
/** How much of the secret stays visible in listings so users can tell keys apart. */
export const API_KEY_DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

function toBase62(value: bigint, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0n) {
    out = BASE62[Number(rest % 62n)] + out;
    rest /= 62n;
  }
  return out.padStart(width, '0');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  return toBase62(BigInt(crc32(body)), CHECKSUM_LENGTH);
}

export function generateApiKeySecret(): string {
  const body = toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), BODY_LENGTH);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the string has the key format and its checksum matches. */
export function isWellFormedApiKey(secret: string): boolean {
  if (
    !secret.startsWith(API_KEY_PREFIX) ||
    secret.length !== API_KEY_PREFIX.length + BODY_LENGTH + CHECKSUM_LENGTH
  ) {
    return false;
  }
  const rest = secret.slice(API_KEY_PREFIX.length);
  if (![...rest].every((ch) => BASE62.includes(ch))) return false;
  return checksum(rest.slice(0, BODY_LENGTH)) === rest.slice(BODY_LENGTH);
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
