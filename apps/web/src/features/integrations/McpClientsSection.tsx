import { Button, Table, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useDisconnectMcpClient, useMcpClients } from '../../api/queries/integrations';
import { mcpUrl } from './integrations';
import { When } from '../dashboard/When';
import { Empty, QueryState } from '../../ui/states';
import { ConfirmModal } from './ConfirmModal';
import { PermissionBadges } from './PermissionBadges';
import { Section } from './Section';

type Client = Schemas['ConnectedClientDto'];

function DisconnectModal({ client, onClose }: { client: Client; onClose: () => void }) {
  const disconnect = useDisconnectMcpClient(client.id, { onSuccess: onClose });
  return (
    <ConfirmModal
      title={`Disconnect “${client.name}”?`}
      confirmLabel="Disconnect client"
      pending={disconnect.isPending}
      error={disconnect.error}
      errorTitle="Could not disconnect the client"
      onConfirm={() => disconnect.mutate()}
      onClose={onClose}
    >
      Every token this client holds for you stops working at once. It can connect again only after you approve
      it again.
    </ConfirmModal>
  );
}

function ClientsTable({
  clients,
  onDisconnect,
}: {
  clients: Client[];
  onDisconnect: (client: Client) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Client name</Table.Th>
            <Table.Th scope="col">Scopes</Table.Th>
            <Table.Th scope="col">Connected</Table.Th>
            <Table.Th scope="col">Last used</Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {clients.map((client) => (
            <Table.Tr key={client.id}>
              <Table.Th scope="row" fw={500}>
                {client.name}
              </Table.Th>
              <Table.Td maw={260}>
                <PermissionBadges permissions={client.scopes} />
              </Table.Td>
              <Table.Td>
                <When iso={client.connectedAt} />
              </Table.Td>
              <Table.Td>
                <When iso={client.lastUsedAt} />
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="light" color="red" onClick={() => onDisconnect(client)}>
                  Disconnect
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function McpClientsSection() {
  const url = mcpUrl(window.location.origin);
  const clients = useMcpClients();
  const [disconnecting, setDisconnecting] = useState<Client | null>(null);

  return (
    <Section
      title="Connected MCP clients"
      covered={disconnecting !== null}
      description="AI assistants and IDE agents connect over the Model Context Protocol. Each one asks for your approval, then acts with the scopes you granted."
    >
      <TextInput
        label="MCP server URL"
        description="Select it and copy it into your MCP client."
        value={url}
        readOnly
        onFocus={(event) => event.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <QueryState query={clients}>
        {(list) =>
          list.length === 0 ? (
            <Empty title="No MCP clients connected">
              Add the URL above to your MCP client (Claude Desktop, an IDE agent or the MCP Inspector) as a
              Streamable HTTP server. The client opens this site so you can sign in and approve what it may
              do; it then shows up here.
            </Empty>
          ) : (
            <ClientsTable clients={list} onDisconnect={setDisconnecting} />
          )
        }
      </QueryState>
      {disconnecting && <DisconnectModal client={disconnecting} onClose={() => setDisconnecting(null)} />}
    </Section>
  );
}
