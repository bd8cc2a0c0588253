import { Button, Group, Text, TextInput } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useDisconnectMcpClient, useMcpClients } from '../../api/queries/integrations';
import { mcpUrl } from './integrations';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { DataTable } from '../../ui/DataTable';
import { Empty, QueryState } from '../../ui/states';
import { When } from '../../ui/When';
import { PermissionBadges } from './PermissionBadges';
import { Section } from './Section';

type Client = Schemas['ConnectedClientDto'];

function DisconnectModal({ client, onClose }: { client: Client; onClose: () => void }) {
  const disconnect = useDisconnectMcpClient(client.id, { onSuccess: onClose });
  return (
    <ConfirmModal
      title={`Disconnect “${client.name}”?`}
      confirmLabel="Disconnect client"
      action={disconnect}
      errorTitle="Could not disconnect the client"
      onClose={onClose}
    >
      Every token this client holds for you stops working at once. It can connect again only after you approve
      it again.
    </ConfirmModal>
  );
}

export function McpClientsSection() {
  const url = mcpUrl(window.location.origin);
  const clients = useMcpClients();
  const clipboard = useClipboard({ timeout: 4000 });
  const [disconnecting, setDisconnecting] = useState<Client | null>(null);

  return (
    <Section
      title="Connected MCP clients"
      covered={disconnecting !== null}
      description="AI assistants and IDE agents connect over the Model Context Protocol. Each one asks for your approval, then acts with the scopes you granted."
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="MCP server URL"
          description="Copy it into your MCP client."
          value={url}
          readOnly
          onFocus={(event) => event.currentTarget.select()}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          style={{ flex: '1 1 280px' }}
        />
        <Button variant="default" onClick={() => clipboard.copy(url)}>
          Copy URL
        </Button>
      </Group>
      <Text size="sm" role="status" aria-live="polite">
        {clipboard.copied ? 'Copied to the clipboard' : ''}
        {clipboard.error ? 'Copying failed: select the URL and copy it yourself' : ''}
      </Text>
      <QueryState query={clients}>
        {(list) => (
          <DataTable
            rows={list}
            minWidth={680}
            empty={
              <Empty title="No MCP clients connected">
                Add the URL above to your MCP client (Claude Desktop, an IDE agent or the MCP Inspector) as a
                Streamable HTTP server. The client opens this site so you can sign in and approve what it may
                do; it then shows up here.
              </Empty>
            }
            columns={[
              {
                header: 'Client name',
                rowHeader: true,
                cellProps: { fw: 500 },
                cell: (client) => client.name,
              },
              {
                header: 'Scopes',
                cellProps: { maw: 260 },
                cell: (client) => <PermissionBadges permissions={client.scopes} />,
              },
              { header: 'Connected', cell: (client) => <When iso={client.connectedAt} /> },
              { header: 'Last used', cell: (client) => <When iso={client.lastUsedAt} /> },
              {
                header: 'Actions',
                cell: (client) => (
                  <Button size="xs" variant="light" color="red" onClick={() => setDisconnecting(client)}>
                    Disconnect
                  </Button>
                ),
              },
            ]}
          />
        )}
      </QueryState>
      {disconnecting && <DisconnectModal client={disconnecting} onClose={() => setDisconnecting(null)} />}
    </Section>
  );
}
