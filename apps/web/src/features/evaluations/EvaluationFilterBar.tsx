import { Button, Group, SegmentedControl, Select, SimpleGrid, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import type { Schemas } from '../../api/client';
import { usePack, usePackVersions } from '../../api/queries/packs';
import { versionOptions } from '../../lib/versions';
import type { EvaluationFilters } from './evaluations';

const STATUSES = [
  { value: 'accept', label: 'Accept' },
  { value: 'review', label: 'Review' },
  { value: 'reject', label: 'Reject' },
];

const ORDERS = [
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
];

interface Props {
  filters: EvaluationFilters;
  packs: Schemas['PackListItemDto'][] | undefined;
  packsError: unknown;
  reversed: boolean;
  onChange: (filters: EvaluationFilters) => void;
}

/** Search, pack and version, status, days and order of the evaluation list. */
export function EvaluationFilterBar({ filters, packs, packsError, reversed, onChange }: Props) {
  const pack = usePack(filters.packId);
  const versions = usePackVersions(filters.packId);
  // The box holds what is typed; the list follows on Enter or "Search", not on every key.
  const [text, setText] = useState(filters.q ?? '');
  useEffect(() => setText(filters.q ?? ''), [filters.q]);
  const search = (event: FormEvent) => {
    event.preventDefault();
    onChange({ ...filters, q: text.trim() || undefined });
  };
  const published = (versions.data ?? []).filter((version) => version.publishedAt !== null);

  return (
    <>
      <form onSubmit={search} role="search" aria-label="Evaluations">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Search"
            description="An external id or its beginning, or words of the subject"
            placeholder="ZD-1001 or refund"
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={200}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button type="submit" variant="default">
            Search
          </Button>
        </Group>
      </form>
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 5 }}>
        <Select
          label="Pack"
          placeholder="All packs"
          data={(packs ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={filters.packId ?? null}
          onChange={(packId) =>
            onChange({ ...filters, packId: packId ?? undefined, packVersionId: undefined })
          }
          clearable
          searchable
          nothingFoundMessage="No pack matches"
          error={packsError ? 'Could not load your packs' : undefined}
        />
        <Select
          label="Version"
          placeholder="All versions"
          data={versionOptions(published, pack.data?.liveVersionId ?? null)}
          value={filters.packVersionId ?? null}
          onChange={(versionId) => onChange({ ...filters, packVersionId: versionId ?? undefined })}
          disabled={!filters.packId || !published.length}
          description={filters.packId ? undefined : 'Pick a pack first'}
          clearable
        />
        <Select
          label="Status"
          placeholder="Any status"
          data={STATUSES}
          value={filters.status ?? null}
          onChange={(status) =>
            onChange({ ...filters, status: (status ?? undefined) as EvaluationFilters['status'] })
          }
          clearable
        />
        <TextInput
          type="date"
          label="From"
          value={filters.fromDay ?? ''}
          onChange={(event) => onChange({ ...filters, fromDay: event.currentTarget.value || undefined })}
          error={reversed ? 'After the last day' : undefined}
        />
        <TextInput
          type="date"
          label="To (included)"
          value={filters.toDay ?? ''}
          onChange={(event) => onChange({ ...filters, toDay: event.currentTarget.value || undefined })}
        />
      </SimpleGrid>
      <SegmentedControl
        aria-label="Order"
        data={ORDERS}
        value={filters.order}
        onChange={(order) => onChange({ ...filters, order: order as EvaluationFilters['order'] })}
        style={{ alignSelf: 'flex-start' }}
      />
    </>
  );
}
