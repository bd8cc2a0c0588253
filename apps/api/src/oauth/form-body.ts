import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '@app/domain';
import { OAuthError } from '@app/oauth';
import { findMalformedJson } from '../errors/well-formed-input.js';

/**
 * Route config of the routes that take `application/x-www-form-urlencoded` bodies: the OAuth token
 * and revocation endpoints (RFC 6749 requires forms) and the HTML sign-in and consent pages. Any
 * other route refuses a form with 415, so a cross-site form still cannot reach a JSON route.
 */
export const ACCEPTS_FORM = { acceptsForm: true } as const;

export function acceptsForm(routeConfig: unknown): boolean {
  return (routeConfig as Partial<typeof ACCEPTS_FORM> | undefined)?.acceptsForm === true;
}

export function isFormContentType(header: string | undefined): boolean {
  return header?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

/** A form's fields; a field sent twice arrives as the list of its values, for the route to refuse. */
export type FormFields = Record<string, string | string[]>;

/** One field's value, or undefined when it is missing or was sent more than once. */
export function formField(form: FormFields | undefined, name: string): string | undefined {
  const value = form?.[name];
  return typeof value === 'string' ? value : undefined;
}

export function useFormParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      // No prototype: a field named __proto__ stays a field (and is then refused like any built-in name).
      const fields = Object.create(null) as FormFields;
      for (const [name, value] of new URLSearchParams(body as string)) {
        const previous = fields[name];
        fields[name] = previous === undefined ? value : [...[previous].flat(), value];
      }
      const issue = findMalformedJson(fields);
      done(issue ? new ValidationError([issue]) : null, fields);
    },
  );
}

/**
 * The token and revocation endpoints' body: a form (RFC 6749 §4.1.3, RFC 7009 §2.1), as the
 * server metadata advertises; a JSON body is refused rather than read another way.
 */
export function oauthForm(request: FastifyRequest): Record<string, string> {
  if (!isFormContentType(request.headers['content-type'])) {
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  }
  return singleValuedForm(request.body as FormFields | undefined);
}

/** The OAuth endpoints' view of a form: every parameter once (RFC 6749 §3.1), or invalid_request. */
export function singleValuedForm(form: FormFields | undefined): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(form ?? {})) {
    if (typeof value !== 'string') {
      throw new OAuthError('invalid_request', `${name.slice(0, 64)} must not be sent more than once`);
    }
    fields[name] = value;
  }
  return fields;
}
