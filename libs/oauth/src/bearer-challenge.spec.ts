import { describe, expect, it } from '@jest/globals';
import { bearerChallenge, resourceMetadataUrl } from './bearer-challenge.js';

describe('bearerChallenge', () => {
  const origin = 'https://judge.example';

  it('without an error: where the metadata is and the scopes to ask for', () => {
    expect(bearerChallenge(origin, ['packs:read', 'judgments:run'])).toBe(
      'Bearer resource_metadata="https://judge.example/.well-known/oauth-protected-resource/mcp", scope="packs:read judgments:run"',
    );
  });

  it('with an error: its code and description first, quotes in the description made single', () => {
    expect(
      bearerChallenge(origin, ['packs:read'], { code: 'invalid_token', description: 'token "x" expired' }),
    ).toBe(
      `Bearer error="invalid_token", error_description="token 'x' expired", resource_metadata="${resourceMetadataUrl(origin)}", scope="packs:read"`,
    );
  });
});
