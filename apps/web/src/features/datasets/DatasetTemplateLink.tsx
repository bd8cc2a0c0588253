import { Button, Group, Select, Text } from '@mantine/core';
import { useState } from 'react';
import { usePacks } from '../../api/queries/packs';
import { ONE_LISTBOX } from '../../ui/listbox';
import { datasetTemplateUrl } from './datasets';

/**
 * A CSV template for a pack: its header names the ticket columns and an `expected:<questionId>`
 * column per question of the pack's live version (the draft when none is published).
 */
export function DatasetTemplateLink() {
  const packs = usePacks();
  const [packId, setPackId] = useState<string | null>(null);
  const chosen = packs.data?.find((pack) => pack.id === packId);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        comboboxProps={ONE_LISTBOX}
        label="CSV template for a pack"
        description="Columns for the tickets and one expected answer per question"
        placeholder={packs.isPending ? 'Loading…' : 'Choose a pack'}
        data={(packs.data ?? []).map((pack) => ({ value: pack.id, label: pack.name }))}
        value={packId}
        onChange={setPackId}
        disabled={packs.isPending || !packs.data?.length}
        allowDeselect={false}
        w={280}
      />
      {chosen ? (
        <Button component="a" href={datasetTemplateUrl(chosen.id)} download variant="light">
          Download template
        </Button>
      ) : (
        <Button variant="light" disabled>
          Download template
        </Button>
      )}
      {packs.data?.length === 0 && (
        <Text size="sm" c="dimmed">
          Create a pack to get a template for it.
        </Text>
      )}
    </Group>
  );
}
