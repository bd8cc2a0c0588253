import { Alert, Anchor, Badge, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { errorMessage, type Schemas } from '../../api/client';
import { reasonText } from '../../lib/answers';
import { formatDateTime } from '../../lib/format';
import { StatusBadge } from '../../ui/StatusBadge';
import { auditText } from './reviews';

interface Props {
  evaluation: Schemas['EvaluationDto'];
  packName: string | undefined;
  questionNames: ReadonlyMap<string, string>;
  /** The queue's filters as a query string. */
  search: string;
  next: { run: () => void; pending: boolean; noneLeft: boolean; error: unknown };
  /** `3 of 247`: where the evaluation stands in the queue of the page's filters, when known. */
  position: string | null;
  /** "Review queue" or "Audit queue": the queue of the page's filters. */
  queue: string;
  /** "Agree with all remaining questions": how many it would label, and its request. */
  agreeAll: { run: () => void; pending: boolean; remaining: number; error: unknown };
}

/** Title, facts, review reasons and queue navigation of an evaluation. */
export function EvaluationHeader({
  evaluation,
  packName,
  questionNames,
  search,
  next,
  position,
  queue,
  agreeAll,
}: Props) {
  const reasons = evaluation.result.reviewReasons;
  const audit = auditText(evaluation);
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
            {audit && (
              <Badge color="violet" variant="light" tt="none">
                {audit}
              </Badge>
            )}
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
      </Group>
      {/* The queue's controls stay in view under the header while the reviewer scrolls. */}
      <Paper
        withBorder
        p="xs"
        component="nav"
        aria-label={queue}
        style={{
          position: 'sticky',
          top: 'calc(var(--app-shell-header-offset, 0px) + 4px)',
          zIndex: 3,
        }}
      >
        <Group justify="space-between" gap="xs">
          <Text size="sm" fw={500} role="status" aria-live="polite">
            {position ? `${queue}: ${position}` : queue}
          </Text>
          <Group gap="xs">
            <Button
              variant="default"
              onClick={agreeAll.run}
              loading={agreeAll.pending}
              disabled={agreeAll.remaining === 0}
            >
              Agree with all remaining questions
            </Button>
            <Button variant="light" onClick={next.run} loading={next.pending} aria-keyshortcuts="n">
              Next item
            </Button>
          </Group>
        </Group>
        {next.noneLeft && (
          <Text size="sm" c="dimmed" role="status">
            Nothing else to label in this queue.
          </Text>
        )}
      </Paper>
      {agreeAll.error ? (
        <Alert color="red" role="alert" p="xs" title="Could not save every label">
          {errorMessage(agreeAll.error)}
        </Alert>
      ) : null}
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
