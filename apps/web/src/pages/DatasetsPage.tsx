import { Title } from '@mantine/core';

export default function DatasetsPage() {
  return <Title order={2}>Datasets</Title>;
}
