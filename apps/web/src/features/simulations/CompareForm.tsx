import { Button, Grid, Select, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { Schemas } from '../../api/client';
import { compareOptions } from './simulations';
import { ONE_LISTBOX } from '../../ui/listbox';

/** "Simulation A", "Simulation B" (completed, same dataset), then "Compare" opens A compared with B. */
export function CompareForm({ items }: { items: Schemas['SimulationListItemDto'][] }) {
  const navigate = useNavigate();
  const [a, setA] = useState<string | null>(null);
  const [b, setB] = useState<string | null>(null);
  const options = compareOptions(items, a);
  const bValue = options.b.some((option) => option.value === b) ? b : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (a && bValue) void navigate(`/simulations/${a}?compare=${bValue}`);
  };

  if (options.a.length < 2) {
    return (
      <Text size="sm" c="dimmed">
        Two completed simulations over the same dataset can be compared; there are not enough yet.
      </Text>
    );
  }
  return (
    <form onSubmit={submit} aria-label="Compare two simulations">
      <Stack gap="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              comboboxProps={ONE_LISTBOX}
              label="Simulation A"
              data={options.a}
              value={a}
              onChange={setA}
              placeholder="Choose one"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <Select
              comboboxProps={ONE_LISTBOX}
              label="Simulation B"
              data={options.b}
              value={bValue}
              onChange={setB}
              placeholder={options.b.length ? 'Choose one' : 'None over the same dataset'}
            />
          </Grid.Col>
        </Grid>
        <Text size="xs" c="dimmed">
          Only completed simulations are listed; B runs over the same dataset as A.
        </Text>
        <Button type="submit" variant="light" disabled={!a || !bValue} style={{ alignSelf: 'flex-start' }}>
          Compare
        </Button>
      </Stack>
    </form>
  );
}
