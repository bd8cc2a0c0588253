import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@app/domain';
import { OAuthRepository, type ConnectedClientRow } from '@app/persistence';
import { displayableName } from './client-metadata.js';
import { isClientIdUrl } from './client-metadata-document.js';

/** A connected client as listed: a metadata document client also shows the host it is published at. */
export type ConnectedClient = ConnectedClientRow & { host: string | null };

/** The MCP clients a user has approved, so none keeps access the user cannot see or end. */
@Injectable()
export class ConnectedClientsService {
  constructor(private readonly repository: OAuthRepository) {}

  async list(userId: string): Promise<ConnectedClient[]> {
    const clients = await this.repository.listConnectedClients(userId);
    return clients.map((client) => ({
      ...client,
      name: displayableName(client.name),
      host: isClientIdUrl(client.clientId) ? new URL(client.clientId).hostname : null,
    }));
  }

  /** Revokes every grant, and so every token, of this client for this user. */
  async disconnect(userId: string, clientId: string): Promise<void> {
    const revoked = clientId.length <= 2000 ? await this.repository.revokeClientGrants(userId, clientId) : [];
    if (!revoked.length) throw new NotFoundError('client not found');
  }
}
