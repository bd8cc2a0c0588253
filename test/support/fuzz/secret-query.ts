/** Where a client may put a credential in a query string, refused or not: no value may reach a log. */
const SECRET_QUERY_PARAMS = [
  'access_token',
  'token',
  'code',
  'refresh_token',
  'client_secret',
  'code_verifier',
  'state',
];

export const SECRET_QUERY_ROUTES: [method: string, path: string][] = [
  ['POST', '/mcp'],
  ['GET', '/mcp'],
  ['GET', '/oauth/authorize'],
  ['POST', '/oauth/token'],
  ['POST', '/oauth/revoke'],
  ['GET', '/api/evaluations'],
  ['POST', '/api/judge'],
  ['GET', '/api/nope'],
  ['GET', '/login'],
  ['GET', '/docs/openapi.json'],
];

/**
 * Each secret parameter as sent, in lower case, in upper case and with its first letter
 * percent-encoded; every value holds `tag` (the route's) and `runTag` (the run's), so it is unique.
 */
export function secretQuery(tag: string, runTag: string): { query: string; values: string[] } {
  const values: string[] = [];
  const pairs = SECRET_QUERY_PARAMS.flatMap((name, i) => {
    const spellings = [name, name.toUpperCase(), `%${name.charCodeAt(0).toString(16)}${name.slice(1)}`];
    return spellings.map((spelling, j) => {
      values.push(`tj_at_${tag}${runTag}${i}x${j}`);
      return `${spelling}=${values.at(-1)}`;
    });
  });
  return { query: pairs.join('&'), values };
}
