/** Every permission a credential can hold, as `resource:action`. */
export const PERMISSIONS = [
  'packs:read',
  'packs:write',
  'judgments:run',
  'judgments:read',
  'simulations:run',
  'labels:write',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}
