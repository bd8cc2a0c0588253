import { Paper, Skeleton, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { lazy, Suspense, useId } from 'react';
import type { Schemas } from '../../api/client';
import { DataTable } from '../../ui/DataTable';
import { formatCount } from '../../lib/format';
import { chartRows, dailySummary } from './dashboard';

let chartModule: Promise<typeof import('./DailyChart')> | undefined;

/**
 * The chart library is most of the dashboard's weight: the app starts its download at boot when it
 * opens on the dashboard, while the stats are still on their way, and other pages never fetch it.
 */
export function preloadDailyChart(): Promise<typeof import('./DailyChart')> {
  chartModule ??= import('./DailyChart');
  return chartModule;
}

const DailyChart = lazy(preloadDailyChart);

/** "Last 30 days": a sentence, the stacked chart, and the figures as a table for screen readers. */
export function DailySection({ daily }: { daily: Schemas['DailyDto'][] }) {
  const headingId = useId();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          Last 30 days
        </Title>
        <Text size="sm" c="dimmed">
          {dailySummary(daily)}
        </Text>
        <Suspense fallback={<Skeleton h={260} aria-hidden />}>
          <DailyChart daily={daily} />
        </Suspense>
        <VisuallyHidden>
          <DataTable
            rows={chartRows(daily)}
            rowKey={(row) => row.date}
            caption="Evaluations per day (UTC), oldest first"
            columns={[
              { header: 'Day', rowHeader: true, cell: (row) => row.day },
              { header: 'Accept', cell: (row) => formatCount(row.accept) },
              { header: 'Review', cell: (row) => formatCount(row.review) },
              { header: 'Reject', cell: (row) => formatCount(row.reject) },
            ]}
          />
        </VisuallyHidden>
      </Stack>
    </Paper>
  );
}
