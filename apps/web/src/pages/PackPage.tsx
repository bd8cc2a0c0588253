import { Title } from '@mantine/core';

export default function PackPage() {
  return <Title order={2}>Pack</Title>;
}
