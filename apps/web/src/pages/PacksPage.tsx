import { Title } from '@mantine/core';

export default function PacksPage() {
  return <Title order={2}>Packs</Title>;
}
