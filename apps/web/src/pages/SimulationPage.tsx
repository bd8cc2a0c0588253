import { Title } from '@mantine/core';

export default function SimulationPage() {
  return <Title order={2}>Simulation</Title>;
}
