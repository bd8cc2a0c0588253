import { Title } from '@mantine/core';

export default function IntegrationsPage() {
  return <Title order={2}>Integrations</Title>;
}
