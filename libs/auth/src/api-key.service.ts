import { Injectable, Logger } from '@nestjs/common';
import {
  API_KEY_DISPLAY_PREFIX_LENGTH,
  generateApiKeySecret,
  hashSecret,
  isWellFormedApiKey,
  NotFoundError,
  PERMISSIONS,
  type Permission,
} from '@app/domain';
import { type ApiKeyEntity, ApiKeyLookup, ApiKeyRepository } from '@app/persistence';
import type { Principal } from './principal.js';

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  permissions: Permission[];
  createdAt: string;
  lastUsedAt: string | null;
}

export type ApiKeyWithSecret = ApiKeyView & { secret: string };

const TOUCH_EVERY_MS = 60_000;

function toView(key: ApiKeyEntity): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    permissions: key.permissions,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
  };
}

function newSecret(): { secret: string; prefix: string; secretHash: string } {
  const secret = generateApiKeySecret();
  return { secret, prefix: secret.slice(0, API_KEY_DISPLAY_PREFIX_LENGTH), secretHash: hashSecret(secret) };
}

@Injectable()
export class ApiKeyService {
  private readonly logger = new Logger(ApiKeyService.name);
  /** When this process last recorded each key's use: lastUsedAt moves at most once a minute. */
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly lookup: ApiKeyLookup,
  ) {}

  async list(userId: string): Promise<ApiKeyView[]> {
    return (await this.keys.listActive(userId)).map(toView);
  }

  async create(
    userId: string,
    name: string,
    permissions: Permission[] = [...PERMISSIONS],
  ): Promise<ApiKeyWithSecret> {
    const { secret, prefix, secretHash } = newSecret();
    const key = await this.keys.create(userId, {
      name,
      prefix,
      secretHash,
      permissions: [...new Set(permissions)],
    });
    return { ...toView(key), secret };
  }

  async rotate(userId: string, id: string): Promise<ApiKeyWithSecret> {
    const { secret, prefix, secretHash } = newSecret();
    const key = await this.keys.replaceSecret(userId, id, prefix, secretHash);
    if (!key) throw new NotFoundError('API key not found');
    return { ...toView(key), secret };
  }

  async revoke(userId: string, id: string): Promise<void> {
    if (!(await this.keys.revoke(userId, id))) throw new NotFoundError('API key not found');
  }

  /** Resolves a presented secret to its principal, or null for a malformed, unknown or revoked key. */
  async authenticate(secret: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(secret)) return null;
    const key = await this.lookup.findActive(hashSecret(secret));
    if (!key) return null;
    this.touch(key.id);
    return { kind: 'apiKey', userId: key.userId, keyId: key.id, permissions: key.permissions };
  }

  private touch(keyId: string): void {
    const now = Date.now();
    if (now - (this.touchedAt.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
    if (this.touchedAt.size > 10_000) this.touchedAt.clear();
    this.touchedAt.set(keyId, now);
    this.keys
      .touchLastUsed(keyId)
      .catch((error: unknown) => this.logger.warn({ err: error }, 'lastUsedAt update failed'));
  }
}
