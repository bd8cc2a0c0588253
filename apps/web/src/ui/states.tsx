import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { errorMessage } from '../api/client';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-hidden />
      <Text ml="sm" c="dimmed">
        {label}…
      </Text>
    </Center>
  );
}

export function ErrorNotice({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  return (
    <Alert color="red" title={title} role="alert">
      {errorMessage(error)}
    </Alert>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Text fw={600}>{title}</Text>
      {children && (
        <Text c="dimmed" size="sm" ta="center">
          {children}
        </Text>
      )}
    </Stack>
  );
}

/** Loading, error or the content: the three states every page shows. */
export function QueryState<T>({
  query,
  children,
}: {
  query: { isPending: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading />;
  if (query.error) return <ErrorNotice error={query.error} />;
  return <>{children(query.data as T)}</>;
}
