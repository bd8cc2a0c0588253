import { Title } from '@mantine/core';

export default function PlaygroundPage() {
  return <Title order={2}>Playground</Title>;
}
