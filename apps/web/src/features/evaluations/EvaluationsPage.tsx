import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useEvaluationList } from '../../api/queries/evaluations';
import { usePacks, usePacksVersions } from '../../api/queries/packs';
import { formatCount } from '../../lib/format';
import { ExperimentsSwitch } from '../../ui/ExperimentsSwitch';
import { PageHeader } from '../../ui/PageHeader';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import { EvaluationFilterBar } from './EvaluationFilterBar';
import { EvaluationsTable } from './EvaluationsTable';
import {
  daysReversed,
  evaluationCount,
  exportHref,
  filtersToParams,
  listQuery,
  readFilters,
  type EvaluationFilters,
} from './evaluations';

function emptyText(filters: EvaluationFilters): string {
  const experiments = filters.experiments
    ? ''
    : ' The playground and simulations are left out: turn on “Include playground and simulations” to see them.';
  const narrowed = filters.packId || filters.status || filters.fromDay || filters.toDay || filters.q;
  return narrowed
    ? `Try other filters or another search.${experiments}`
    : `Every judgment is kept here.${experiments}`;
}

/** Every evaluation of the account, filtered, searched and counted, newest (or oldest) first. */
export default function EvaluationsPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters = readFilters(searchParams);
  const reversed = daysReversed(filters);
  const query = listQuery(filters);
  const packs = usePacks();
  // Days that run backwards are not sent: the API would refuse them; the field says why.
  const list = useEvaluationList(reversed ? { ...query, from: undefined, to: undefined } : query);
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const first = list.data?.pages[0];
  const packIds = useMemo(() => [...new Set(items.map((item) => item.packId))].sort(), [items]);
  const versions = usePacksVersions(packIds);
  const packsById = useMemo(() => new Map((packs.data ?? []).map((pack) => [pack.id, pack])), [packs.data]);

  return (
    <Stack gap="md">
      <PageHeader
        title="Evaluations"
        description={
          filters.experiments
            ? 'Every judgment of every source: search by external id or subject, filter, and open one to see its answers.'
            : 'Judgments of live traffic (API, webhooks, MCP): search by external id or subject, filter, and open one to see its answers.'
        }
        actions={
          <Group gap="md" align="center">
            <ExperimentsSwitch />
            <Anchor href={exportHref(query)} download>
              Export CSV
            </Anchor>
          </Group>
        }
      />
      <EvaluationFilterBar
        filters={filters}
        packs={packs.data}
        packsError={packs.error}
        reversed={reversed}
        onChange={(next) => setSearchParams(filtersToParams(next), { replace: true })}
      />
      <Text fw={500} aria-live="polite">
        {first ? evaluationCount(first.total, first.totalCapped) : '\u00a0'}
      </Text>
      {list.isPending ? (
        <Loading label="Loading evaluations" />
      ) : list.isError && !items.length ? (
        <ErrorNotice error={list.error} title="Could not load the evaluations" />
      ) : !items.length ? (
        <Empty title="No evaluations">{emptyText(filters)}</Empty>
      ) : (
        <>
          <EvaluationsTable items={items} packs={packsById} versions={versions} />
          {list.isFetchNextPageError && <ErrorNotice error={list.error} title="Could not load more" />}
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {formatCount(items.length)} shown{list.hasNextPage ? '' : ', end of the list'}
            </Text>
            {list.hasNextPage && (
              <Button
                variant="default"
                onClick={() => void list.fetchNextPage()}
                loading={list.isFetchingNextPage}
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
