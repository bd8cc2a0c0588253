import { Title } from '@mantine/core';

export default function EvaluationPage() {
  return <Title order={2}>Evaluation</Title>;
}
