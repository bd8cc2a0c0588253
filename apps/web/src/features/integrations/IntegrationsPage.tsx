import { Stack, Text, Title } from '@mantine/core';
import { ApiKeysSection } from './ApiKeysSection';
import { CompletionEndpointSection } from './CompletionEndpointSection';
import { McpClientsSection } from './McpClientsSection';

export default function IntegrationsPage() {
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2}>Integrations</Title>
        <Text c="dimmed">Connect your help desk, scripts and AI assistants to Ticket Judge.</Text>
      </Stack>
      <ApiKeysSection />
      <CompletionEndpointSection />
      <McpClientsSection />
    </Stack>
  );
}
