import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/domain';
import { OAuthRepository, type ConnectedClientRow } from '@app/persistence';
import { displayableName } from './client-metadata.js';

/** The MCP clients a user has approved, so none keeps access the user cannot see or end. */
@Injectable()
export class ConnectedClientsService {
  constructor(private readonly repository: OAuthRepository) {}

  async list(userId: string): Promise<ConnectedClientRow[]> {
    const clients = await this.repository.listConnectedClients(userId);
    return clients.map((client) => ({ ...client, name: displayableName(client.name) }));
  }

  /** Revokes every grant, and so every token, of this client for this user. */
  async disconnect(userId: string, clientId: string): Promise<void> {
    const revoked = clientId.length <= 200 ? await this.repository.revokeClientGrants(userId, clientId) : [];
    if (!revoked.length) throw new NotFoundError('client not found');
  }
}
