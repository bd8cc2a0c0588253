import { Alert, Anchor, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { errorMessage, type Schemas } from '../../api/client';
import { reasonText } from '../../lib/answers';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../../ui/StatusBadge';

interface Props {
  evaluation: Schemas['EvaluationDto'];
  packName: string | undefined;
  questionNames: ReadonlyMap<string, string>;
  /** The queue's filters as a query string. */
  search: string;
  next: { run: () => void; pending: boolean; noneLeft: boolean; error: unknown };
}

/** Title, facts, review reasons and queue navigation of an evaluation. */
export function EvaluationHeader({ evaluation, packName, questionNames, search, next }: Props) {
  const reasons = evaluation.result.reviewReasons;
  return (
    <Stack gap="sm">
      <Anchor component={Link} to={`/reviews${search}`} size="sm">
        ← Back to reviews
      </Anchor>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={2}>Evaluation</Title>
            <StatusBadge status={evaluation.status} />
          </Group>
          <Text size="sm" c="dimmed">
            <time dateTime={evaluation.createdAt}>{formatDateTime(evaluation.createdAt)}</time>
            {' · '}
            {packName ? (
              <Anchor component={Link} to={`/packs/${evaluation.packId}`} size="sm" underline="always">
                {packName}
              </Anchor>
            ) : (
              'Deleted pack'
            )}
            {` · ${evaluation.source} · ${evaluation.modelId} · ${evaluation.latencyMs} ms`}
          </Text>
        </Stack>
        <Stack gap={4} align="flex-end">
          <Button variant="light" onClick={next.run} loading={next.pending} aria-keyshortcuts="n">
            Next item
          </Button>
          {next.noneLeft && (
            <Text size="sm" c="dimmed" role="status">
              Nothing else to label in this queue.
            </Text>
          )}
        </Stack>
      </Group>
      {next.error ? (
        <Alert color="red" role="alert" p="xs" title="Could not find the next item">
          {errorMessage(next.error)}
        </Alert>
      ) : null}
      {reasons.length > 0 && (
        <Paper withBorder p="sm" component="section" aria-labelledby="reasons-heading">
          <Text size="sm" fw={600} id="reasons-heading">
            Why it needs review
          </Text>
          <List size="sm">
            {reasons.map((reason) => (
              <List.Item key={reason}>{reasonText(reason, questionNames)}</List.Item>
            ))}
          </List>
        </Paper>
      )}
    </Stack>
  );
}
