import { Anchor, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useShadowRun, useShadowRuns } from '../../api/queries/shadow';
import { formatDateTime } from '../../lib/format';
import { publishSummaryLines, runMatchingDraft, runStatusText } from './shadow';

/**
 * The publish dialog's first section: the report of the newest shadow run of this very draft, in a
 * few lines, with a way to its full report. Nothing without such a run.
 */
export function ShadowPublishSummary({ packId, onOpenTab }: { packId: string; onOpenTab?: () => void }) {
  const runs = useShadowRuns(packId);
  const run = runMatchingDraft(runs.data ?? []);
  const detail = useShadowRun(run?.id);
  const headingId = useId();
  if (!run || !detail.data) return null;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={headingId}>
          Shadow run of this draft on live traffic
        </Title>
        <Text size="xs" c="dimmed">
          {runStatusText(detail.data)}, started {formatDateTime(detail.data.createdAt)}.
        </Text>
        <List size="sm" spacing={2}>
          {publishSummaryLines(detail.data.report).map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
        {onOpenTab ? (
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={onOpenTab}
            style={{ alignSelf: 'flex-start' }}
          >
            Open the full report on the Shadow tab
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            The full report is on the Shadow tab.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
