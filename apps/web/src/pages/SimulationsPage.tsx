import { Title } from '@mantine/core';

export default function SimulationsPage() {
  return <Title order={2}>Simulations</Title>;
}
