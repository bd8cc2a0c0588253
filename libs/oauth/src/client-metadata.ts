import { z } from 'zod';
import { MAX_REDIRECT_URIS } from './redirect-uris.js';

/**
 * Control and format characters (Unicode Cc and Cf): bidi overrides and isolates (U+202E, U+2066),
 * zero-width characters (U+200B), NUL. Shown on the consent page, they would let a client dress
 * its name up as another's ("Claude Desktop" followed by reversed text).
 */
const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;

export function hasControlOrFormatCharacters(value: string): boolean {
  return CONTROL_OR_FORMAT.test(value);
}

/**
 * A stored name as it may be shown: registration refuses these characters, but clients registered
 * before it did may still hold them, so whatever shows a client's name shows it without them.
 */
export function displayableName(value: string): string {
  return value.replace(new RegExp(CONTROL_OR_FORMAT.source, 'gu'), '');
}

const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !hasControlOrFormatCharacters(value), {
      message: 'must not contain control or format characters (such as U+202E, U+200B, U+0000)',
    });

const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;

/** RFC 7591 client metadata this server keeps; other members are dropped, every member is bounded. */
export const CLIENT_METADATA = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(MAX_REDIRECT_URIS),
  token_endpoint_auth_method: z.enum(AUTH_METHODS).default('client_secret_basic'),
  grant_types: z
    .array(z.enum(['authorization_code', 'refresh_token']))
    .max(2)
    .default(['authorization_code', 'refresh_token']),
  response_types: z.array(z.literal('code')).max(1).default(['code']),
  client_name: text(200).optional(),
  client_uri: text(2000).optional(),
  logo_uri: text(2000).optional(),
  scope: text(500).optional(),
  software_id: text(200).optional(),
  software_version: text(100).optional(),
});

export type ClientMetadata = z.infer<typeof CLIENT_METADATA>;
