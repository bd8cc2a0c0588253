import type { Schemas } from '../../api/client';
import { formatLatency } from '../../lib/format';

export type Permission = Schemas['ApiKeyDto']['permissions'][number];

/** The six permissions, in the order the API documents them; a new key gets all of them. */
export const PERMISSIONS: readonly Permission[] = [
  'packs:read',
  'packs:write',
  'judgments:run',
  'judgments:read',
  'simulations:run',
  'labels:write',
];

export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  'packs:read': 'Read packs, datasets, the completion endpoint and its deliveries',
  'packs:write': 'Create, edit and publish packs and datasets; save the completion endpoint',
  'judgments:run': 'Judge tickets, including through the inbound webhook',
  'judgments:read': 'Read evaluations, the review queue, stats and calibration',
  'simulations:run': 'Start and read simulations',
  'labels:write': 'Label evaluations and remove labels',
};

/** The permissions in their documented order; `all` when every one is granted. */
export function describePermissions(permissions: readonly string[]): { all: boolean; list: Permission[] } {
  const list = PERMISSIONS.filter((permission) => permissions.includes(permission));
  return { all: list.length === PERMISSIONS.length, list };
}

export function validateKeyName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Enter a name for the key';
  if (trimmed.length > 100) return 'Use at most 100 characters';
  return undefined;
}

export function validatePermissions(permissions: readonly string[]): string | undefined {
  return permissions.length === 0 ? 'Choose at least one permission' : undefined;
}

/** What the API checks first, so a typo is caught before the round trip. */
export function validateEndpointUrl(url: string): string | undefined {
  const trimmed = url.trim();
  if (!trimmed) return 'Enter the URL that should receive completions';
  if (trimmed.length > 2048) return 'Use at most 2048 characters';
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'Enter an absolute http or https URL, like https://example.com/hooks/ticket-judge';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return 'The URL must start with http or https';
  return undefined;
}

/** The shape of ApiError this module needs (it is kept free of the API client to stay testable). */
export interface FieldErrorSource {
  status: number;
  message: string;
  issueFor(path: string): string | undefined;
}

/**
 * The message for one field: from the schema issues, or a 400 whose message names the field
 * (`url must be an absolute http or https URL`, `url host does not resolve`).
 */
export function fieldError(error: FieldErrorSource | undefined, field: string): string | undefined {
  if (!error) return undefined;
  const issue = error.issueFor(field);
  if (issue) return issue;
  return error.status === 400 && error.message.startsWith(`${field} `) ? error.message : undefined;
}

export type DeliveryStatus = Schemas['DeliveryDto']['status'];

export const DELIVERY_STATUS_COLORS: Record<DeliveryStatus, string> = {
  pending: 'blue',
  succeeded: 'teal',
  failed: 'red',
};

/** The status code of a delivery's last attempt, in words when there was no response. */
export function describeStatusCode(
  delivery: Pick<Schemas['DeliveryDto'], 'attempts' | 'lastStatusCode'>,
): string {
  if (delivery.lastStatusCode !== null) return String(delivery.lastStatusCode);
  return delivery.attempts === 0 ? 'not sent yet' : 'no response';
}

/** The address MCP clients connect to. */
export function mcpUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/mcp`;
}

/** When a delivery will be tried again: only a pending one has a next attempt. */
export function nextRetryAt(
  delivery: Pick<Schemas['DeliveryDto'], 'status' | 'nextAttemptAt'>,
): string | null {
  return delivery.status === 'pending' ? delivery.nextAttemptAt : null;
}

/** How the endpoint treats inbound requests, as its setting says. */
export function describeInboundSignature(requireInboundSignature: boolean): string {
  return requireInboundSignature
    ? 'a valid X-Service-Signature is required (unsigned ones get 401)'
    : 'signed or unsigned (a signature, when sent, is checked)';
}

export type EndpointTestResult = Schemas['EndpointTestResultDto'];

/**
 * A test event's outcome in a line, with the receiver's status and the time it took:
 * `HTTP 204 in 38 ms`, or `No response after 10 s: Error: connect ECONNREFUSED …`.
 */
export function describeTestResult(result: EndpointTestResult): { ok: boolean; summary: string } {
  const time = result.durationMs < 1 ? 'under 1 ms' : formatLatency(result.durationMs);
  if (result.status !== null) return { ok: result.ok, summary: `HTTP ${result.status} in ${time}` };
  return { ok: false, summary: `No response after ${time}${result.error ? `: ${result.error}` : ''}` };
}
