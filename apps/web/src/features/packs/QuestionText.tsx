import { Badge, Group, List, Stack, Text } from '@mantine/core';
import type { Question } from '../../lib/pack-document';
import { describeCriteria } from './packs';

/** A question as plain text: name, type, instructions and its criteria in words. */
export function QuestionText({ question, missing }: { question: Question | undefined; missing: string }) {
  if (!question) {
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {missing}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Text fw={600}>{question.name}</Text>
        <Badge size="xs" variant="outline">
          {question.type}
        </Badge>
      </Group>
      {question.instructions ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {question.instructions}
        </Text>
      ) : (
        <Text size="sm" c="dimmed">
          No instructions
        </Text>
      )}
      <List size="sm" spacing={2}>
        {describeCriteria(question).map((line, index) => (
          <List.Item key={index}>{line}</List.Item>
        ))}
      </List>
    </Stack>
  );
}
