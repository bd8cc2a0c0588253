import { Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { Empty, ErrorNotice, Loading } from './states';

/** What `PagedQueryState` reads of an infinite query over pages of `{items}`. */
interface PagedQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: { pages: readonly { items: readonly T[] }[] } | undefined;
  isFetchNextPageError: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * A paged list's states: loading, the error, `empty` when there are no items, else the items
 * loaded so far and "Load more <noun>" for the next page (with its own error).
 */
export function PagedQueryState<T>({
  query,
  noun,
  empty,
  children,
}: {
  query: PagedQuery<T>;
  /** What the items are, in the plural: "Loading tickets", "Load more tickets". */
  noun: string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (query.isPending) return <Loading label={`Loading ${noun}`} />;
  if (query.isError && !query.data)
    return <ErrorNotice error={query.error} title={`Could not load ${noun}`} />;
  const items = query.data?.pages.flatMap((page) => page.items) ?? [];
  if (!items.length) return typeof empty === 'string' ? <Empty title={empty} /> : <>{empty}</>;
  return (
    <Stack gap="sm">
      {children(items)}
      {query.isFetchNextPageError && (
        <ErrorNotice error={query.error} title={`Could not load more ${noun}`} />
      )}
      {query.hasNextPage && (
        <Button
          variant="default"
          onClick={() => void query.fetchNextPage()}
          loading={query.isFetchingNextPage}
          style={{ alignSelf: 'flex-start' }}
        >
          Load more {noun}
        </Button>
      )}
    </Stack>
  );
}
