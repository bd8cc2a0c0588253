import { Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { usePacks } from '../../api/queries/packs';
import { useReviewQueue } from '../../api/queries/reviews';
import { ReviewFilterBar } from './ReviewFilters';
import { ReviewTable } from './ReviewTable';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import {
  filtersSearch,
  filtersToParams,
  queueCount,
  queueName,
  readFilters,
  reviewQuery,
  type ReviewFilters,
} from './reviews';
import { PageHeader } from '../../ui/PageHeader';

function emptyText(filters: ReviewFilters): string {
  const audit = filters.queue === 'audit';
  const experiments =
    filters.experiments || audit
      ? ''
      : ' The playground and simulations are left out: turn on “Include playground and simulations” to see them.';
  if (filters.labeled === 'false')
    return `Every ${audit ? 'audit item' : 'evaluation in review'} has a label.${experiments}`;
  if (filters.packId || filters.questionId || filters.labeled === 'true')
    return `Try other filters.${experiments}`;
  if (audit)
    return 'Automatic decisions drawn for audit show up here. Set an audit rate on a pack’s Audit tab to start.';
  return `Evaluations that need a person show up here.${experiments}`;
}

function description(filters: ReviewFilters): string {
  const order = filters.byValue ? 'most valuable label first' : 'newest first';
  if (filters.queue === 'audit')
    return `Automatic decisions (accept, reject) of live traffic drawn at random for audit, ${order}. Their labels measure how often the judge is right when it decides alone.`;
  return filters.experiments
    ? `Evaluations the decision rule sent to review, ${order}, from every source. Label them to measure and calibrate the model.`
    : `Evaluations of live traffic (API, webhooks, MCP) the decision rule sent to review, ${order}. Label them to measure and calibrate the model.`;
}

export default function ReviewsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = readFilters(searchParams);
  const packs = usePacks();
  const queue = useReviewQueue(reviewQuery(filters));
  const packNames = useMemo(
    () => new Map((packs.data ?? []).map((pack) => [pack.id, pack.name])),
    [packs.data],
  );
  const items = queue.data?.pages.flatMap((page) => page.items) ?? [];
  const first = queue.data?.pages[0];

  return (
    <Stack gap="md">
      <PageHeader
        title="Reviews"
        description={description(filters)}
        actions={
          <SegmentedControl
            aria-label="Queue"
            data-testid="review-queue"
            data={[
              { value: 'review', label: 'Review' },
              { value: 'audit', label: 'Audit' },
            ]}
            value={filters.queue ?? 'review'}
            onChange={(queue) =>
              setSearchParams(
                filtersToParams({ ...filters, queue: queue === 'audit' ? 'audit' : 'review' }),
                {
                  replace: true,
                },
              )
            }
          />
        }
      />
      <ReviewFilterBar
        filters={filters}
        packs={packs.data}
        packsError={packs.error}
        onChange={(next) => setSearchParams(filtersToParams(next), { replace: true })}
      />
      {queue.isPending ? (
        <Loading label={`Loading the ${queueName(filters).toLowerCase()}`} />
      ) : queue.isError && !items.length ? (
        <ErrorNotice error={queue.error} title={`Could not load the ${queueName(filters).toLowerCase()}`} />
      ) : !items.length ? (
        <Empty title={filters.queue === 'audit' ? 'Nothing to audit' : 'Nothing to review'}>
          {emptyText(filters)}
        </Empty>
      ) : (
        <>
          <ReviewTable
            items={items}
            packNames={packNames}
            search={filtersSearch(filters)}
            audit={filters.queue === 'audit'}
          />
          {queue.isFetchNextPageError && <ErrorNotice error={queue.error} title="Could not load more" />}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" aria-live="polite">
              {first ? queueCount(items.length, first.total, first.totalCapped) : `${items.length} shown`}
              {queue.hasNextPage ? '' : ', end of the queue'}
            </Text>
            {queue.hasNextPage && (
              <Button
                variant="default"
                onClick={() => void queue.fetchNextPage()}
                loading={queue.isFetchingNextPage}
              >
                Load more
              </Button>
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
