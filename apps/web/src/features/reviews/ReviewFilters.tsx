import { Select, SimpleGrid } from '@mantine/core';
import type { Schemas } from '../../api/client';
import type { LabeledFilter, ReviewFilters } from './reviews';
import { usePack } from '../../api/queries/packs';

const LABELED = [
  { value: 'all', label: 'All' },
  { value: 'false', label: 'Unlabeled' },
  { value: 'true', label: 'Labeled' },
];

interface Props {
  filters: ReviewFilters;
  packs: Schemas['PackListItemDto'][] | undefined;
  packsError: unknown;
  onChange: (filters: ReviewFilters) => void;
}

/** Pack, question and labeled filters of the review queue. */
export function ReviewFilterBar({ filters, packs, packsError, onChange }: Props) {
  const pack = usePack(filters.packId);
  const questions = pack.data?.liveDocument?.questions ?? [];
  const questionHint = !filters.packId
    ? 'Pick a pack first'
    : pack.error
      ? 'Could not load the questions of this pack'
      : pack.data && !pack.data.liveDocument
        ? 'This pack has no published version'
        : undefined;

  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <Select
        label="Pack"
        placeholder="All packs"
        data={(packs ?? []).map((item) => ({ value: item.id, label: item.name }))}
        value={filters.packId ?? null}
        onChange={(packId) => onChange({ ...filters, packId: packId ?? undefined, questionId: undefined })}
        clearable
        searchable
        nothingFoundMessage="No pack matches"
        error={packsError ? 'Could not load your packs' : undefined}
      />
      <Select
        label="Question"
        placeholder="All questions"
        data={questions.map((question) => ({ value: question.id, label: question.name || question.id }))}
        value={filters.questionId ?? null}
        onChange={(questionId) => onChange({ ...filters, questionId: questionId ?? undefined })}
        disabled={!filters.packId || !questions.length}
        description={questionHint}
        clearable
      />
      <Select
        label="Labeled"
        data={LABELED}
        value={filters.labeled}
        onChange={(labeled) => onChange({ ...filters, labeled: (labeled ?? 'all') as LabeledFilter })}
        allowDeselect={false}
      />
    </SimpleGrid>
  );
}
