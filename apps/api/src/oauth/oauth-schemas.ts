import type { SchemaObject } from '@nestjs/swagger';
import { OAUTH_SCOPES } from '@app/oauth';

/** The OpenAPI description of the OAuth endpoints' bodies (RFC 7591, RFC 6749, RFC 7009). */
export const OAUTH_ERROR_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};

export const CLIENT_METADATA_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['redirect_uris'],
  properties: {
    redirect_uris: { type: 'array', minItems: 1, maxItems: 10, items: { type: 'string', maxLength: 2000 } },
    token_endpoint_auth_method: {
      type: 'string',
      enum: ['none', 'client_secret_post', 'client_secret_basic'],
      default: 'client_secret_basic',
    },
    grant_types: { type: 'array', items: { type: 'string', enum: ['authorization_code', 'refresh_token'] } },
    response_types: { type: 'array', items: { type: 'string', enum: ['code'] } },
    client_name: { type: 'string', maxLength: 200 },
    client_uri: { type: 'string', maxLength: 2000 },
    logo_uri: { type: 'string', maxLength: 2000 },
    scope: {
      type: 'string',
      maxLength: 500,
      description: `Space-separated, among: ${OAUTH_SCOPES.join(' ')}`,
    },
    software_id: { type: 'string', maxLength: 200 },
    software_version: { type: 'string', maxLength: 100 },
  },
};

export const TOKEN_REQUEST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['grant_type'],
  properties: {
    grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
    code: { type: 'string' },
    redirect_uri: { type: 'string' },
    code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
    refresh_token: { type: 'string' },
    scope: { type: 'string' },
    resource: { type: 'string' },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
  },
};

export const TOKEN_RESPONSE_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'refresh_token', 'scope'],
  properties: {
    access_token: { type: 'string' },
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer', example: 3600 },
    refresh_token: { type: 'string' },
    scope: { type: 'string' },
  },
};

export const REVOCATION_REQUEST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['token'],
  properties: {
    token: { type: 'string' },
    token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
    client_id: { type: 'string' },
    client_secret: { type: 'string' },
  },
};
