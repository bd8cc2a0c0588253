import { Group, Input, Select, Switch } from '@mantine/core';
import type { Schemas } from '../../api/client';
import type { LabeledFilter, ReviewFilters } from './reviews';
import { usePack } from '../../api/queries/packs';
import { ExperimentsSwitch } from '../../ui/ExperimentsSwitch';

const LABELED = [
  { value: 'all', label: 'All' },
  { value: 'false', label: 'Unlabeled' },
  { value: 'true', label: 'Labeled' },
];

// One row: every field is a label line and a 36 px control, and hints and errors go below the
// control, so the inputs and the switch line up whatever a field says. Fields share the row's width
// and wrap onto their own lines on a phone.
const FIELD = { flex: '1 1 12rem' };
const ORDER: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

interface Props {
  filters: ReviewFilters;
  packs: Schemas['PackListItemDto'][] | undefined;
  packsError: unknown;
  onChange: (filters: ReviewFilters) => void;
}

/** Pack, question and labeled filters of the queue, its order, and the sources switch. */
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
    <Group align="flex-start" gap="md" data-testid="review-filters">
      <Select
        style={FIELD}
        inputWrapperOrder={ORDER}
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
        style={FIELD}
        inputWrapperOrder={ORDER}
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
        style={FIELD}
        inputWrapperOrder={ORDER}
        label="Labeled"
        data={LABELED}
        value={filters.labeled}
        onChange={(labeled) => onChange({ ...filters, labeled: (labeled ?? 'all') as LabeledFilter })}
        allowDeselect={false}
      />
      {/* The switches name themselves; the line above each is a heading like the fields' labels. */}
      <Input.Wrapper label="Order" labelElement="div">
        <Group h={36} align="center">
          <Switch
            label="Most valuable first"
            checked={filters.byValue ?? false}
            onChange={(event) => onChange({ ...filters, byValue: event.currentTarget.checked })}
          />
        </Group>
      </Input.Wrapper>
      {filters.queue !== 'audit' && (
        // The audit queue is live traffic only: the playground and simulations are never drawn.
        <Input.Wrapper label="Sources" labelElement="div">
          <Group h={36} align="center">
            <ExperimentsSwitch inline />
          </Group>
        </Input.Wrapper>
      )}
    </Group>
  );
}
