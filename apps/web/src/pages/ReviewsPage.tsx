import { Title } from '@mantine/core';

export default function ReviewsPage() {
  return <Title order={2}>Reviews</Title>;
}
