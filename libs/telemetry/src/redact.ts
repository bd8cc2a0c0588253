/** What a redacted value reads as in a span. */
export const REDACTED = '[redacted]';

/** A query parameter's name is kept when it looks like a name; a long or odd one may be a token. */
const PARAMETER_NAME = /^[A-Za-z_][\w.[\]-]{0,31}$/;

/**
 * A query string (without its `?`) with every value replaced, whatever the parameter's name: a
 * client may put a live token in any of them (`next=` can carry a whole authorization request).
 */
export function redactQuery(query: string): string {
  if (query === '') return '';
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      const shown = PARAMETER_NAME.test(name) ? name : REDACTED;
      return equals === -1 && shown === name ? name : `${shown}=${REDACTED}`;
    })
    .join('&');
}

/** A request target (`/login?next=…`) as its path alone; the query goes to `url.query`, redacted. */
export function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/** A request target with its query's values redacted and any fragment dropped. */
export function redactTarget(target: string): string {
  const path = pathOf(target);
  const query = queryOf(target);
  return query === '' ? path : `${path}?${redactQuery(query)}`;
}

/** The query of a request target, without its `?` (and without a fragment). */
export function queryOf(target: string): string {
  const start = target.indexOf('?');
  if (start === -1) return '';
  const query = target.slice(start + 1);
  const hash = query.indexOf('#');
  return hash === -1 ? query : query.slice(0, hash);
}

/**
 * An absolute URL without user info and with its query's values redacted: a completion endpoint
 * may carry credentials in either. Something unparsable is recorded as redacted, never as is.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  const query = parsed.search.slice(1);
  const userInfo = parsed.username || parsed.password ? `${REDACTED}@` : '';
  return `${parsed.protocol}//${userInfo}${parsed.host}${parsed.pathname}${query ? `?${redactQuery(query)}` : ''}`;
}

/**
 * A Redis command as recorded in `db.query.text`: its name alone. Arguments hold keys, job
 * payloads (ticket text) and counters, none of which a trace needs.
 */
export function redisStatement(command: string): string {
  return command;
}
