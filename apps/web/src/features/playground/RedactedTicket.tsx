import { Card, Stack, Table, Text, Title } from '@mantine/core';
import { metadataEntries, type Ticket } from './playground';

function Block({ label, text }: { label: string; text: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {text || '(empty)'}
      </Text>
    </div>
  );
}

/** The ticket as the model saw it and as it is stored: after redaction. */
export function RedactedTicket({ ticket }: { ticket: Ticket | undefined }) {
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="redacted-ticket-title">
      <Stack gap="sm">
        <Title order={3} id="redacted-ticket-title">
          Redacted ticket
        </Title>
        {!ticket ? (
          <Text size="sm" c="dimmed">
            Judge a ticket to see it as the model sees it, with emails, card numbers, secrets and other
            personal data replaced.
          </Text>
        ) : (
          <>
            <Block label="Subject" text={ticket.subject} />
            <Block label="Customer message" text={ticket.customerMessage} />
            {(ticket.messages ?? []).map((message, index) => (
              <Block key={index} label={`Message ${index + 1} (${message.role})`} text={message.text} />
            ))}
            {metadataEntries(ticket).length > 0 && (
              <Table.ScrollContainer minWidth={240}>
                <Table withTableBorder>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Metadata key</Table.Th>
                      <Table.Th scope="col">Value</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {metadataEntries(ticket).map(([key, value]) => (
                      <Table.Tr key={key}>
                        <Table.Td>{key}</Table.Td>
                        <Table.Td>{value}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}
