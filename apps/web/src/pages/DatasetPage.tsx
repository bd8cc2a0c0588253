import { Title } from '@mantine/core';

export default function DatasetPage() {
  return <Title order={2}>Dataset</Title>;
}
