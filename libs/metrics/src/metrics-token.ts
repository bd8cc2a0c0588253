import { timingSafeEqual } from 'node:crypto';

/** With METRICS_TOKEN set, a scrape must send `Authorization: Bearer <token>`; without it, anyone may. */
export function metricsAuthorized(token: string | undefined, authorization: string | undefined): boolean {
  if (!token) return true;
  const expected = Buffer.from(`Bearer ${token}`);
  const given = Buffer.from(authorization ?? '');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
