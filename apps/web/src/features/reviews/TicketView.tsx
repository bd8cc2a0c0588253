import { Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { formatDateTime } from '../../lib/format';

const PRE = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

function Metadata({ metadata }: { metadata: NonNullable<Schemas['TicketDto']['metadata']> }) {
  const entries = Object.entries(metadata);
  if (!entries.length) return null;
  return (
    <Table.ScrollContainer minWidth={280}>
      <Table withTableBorder>
        <Table.Caption>Metadata</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Key</Table.Th>
            <Table.Th>Value</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map(([key, value]) => (
            <Table.Tr key={key}>
              <Table.Td style={PRE}>{key}</Table.Td>
              <Table.Td style={PRE}>{value === null ? 'null' : String(value)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The redacted ticket, as plain text. */
export function TicketView({ ticket }: { ticket: Schemas['TicketDto'] }) {
  return (
    <Card withBorder component="section" aria-labelledby="ticket-heading">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} id="ticket-heading" size="h4">
            Ticket
          </Title>
          <Text size="xs" c="dimmed">
            Redacted as stored
            {ticket.externalId ? ` · external id ${ticket.externalId}` : ''}
            {ticket.createdAt ? ` · ${formatDateTime(ticket.createdAt)}` : ''}
          </Text>
        </Group>
        <div>
          <Text size="xs" c="dimmed" fw={600}>
            Subject
          </Text>
          <Text fw={600} style={PRE}>
            {ticket.subject || '(no subject)'}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed" fw={600}>
            Customer message
          </Text>
          <Text style={PRE}>{ticket.customerMessage}</Text>
        </div>
        {!!ticket.messages?.length && (
          <Stack
            gap="xs"
            component="ol"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label="Thread"
          >
            {ticket.messages.map((message, index) => (
              <Card
                key={index}
                component="li"
                withBorder
                padding="sm"
                bg="var(--mantine-color-default-hover)"
              >
                <Group gap="xs" mb={4}>
                  <Badge size="sm" variant="outline">
                    {message.role}
                  </Badge>
                  {message.at && (
                    <Text size="xs" c="dimmed">
                      {formatDateTime(message.at)}
                    </Text>
                  )}
                </Group>
                <Text size="sm" style={PRE}>
                  {message.text}
                </Text>
              </Card>
            ))}
          </Stack>
        )}
        {ticket.metadata && <Metadata metadata={ticket.metadata} />}
      </Stack>
    </Card>
  );
}
