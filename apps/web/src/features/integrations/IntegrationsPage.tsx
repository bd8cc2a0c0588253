import { Stack } from '@mantine/core';
import { ApiKeysSection } from './ApiKeysSection';
import { CompletionEndpointSection } from './CompletionEndpointSection';
import { McpClientsSection } from './McpClientsSection';
import { PageHeader } from '../../ui/PageHeader';

export default function IntegrationsPage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Integrations"
        description="Connect your help desk, scripts and AI assistants to Ticket Judge."
      />
      <ApiKeysSection />
      <CompletionEndpointSection />
      <McpClientsSection />
    </Stack>
  );
}
