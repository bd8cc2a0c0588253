import { Anchor, Button, Grid, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDatasets } from '../../api/queries/datasets';
import { usePacks, usePackVersions } from '../../api/queries/packs';
import { ApiError } from '../../api/client';
import { useStartSimulation } from '../../api/queries/simulations';
import { countLabel } from '../../lib/format';
import { defaultVersionId, versionOptions } from '../../lib/versions';
import { ErrorNotice } from '../../ui/states';
import { ONE_LISTBOX } from '../../ui/listbox';

/** Dataset, pack and version (live by default), then "Start simulation" opens the new run. */
export function StartSimulationForm() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const datasets = useDatasets();
  const packs = usePacks();
  const [datasetId, setDatasetId] = useState<string | null>(params.get('datasetId'));
  const [packId, setPackId] = useState<string | null>(null);
  const [versionId, setVersionId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const versions = usePackVersions(packId);

  const pack = packs.data?.find((item) => item.id === packId);
  const liveVersionId = pack?.liveVersionId ?? null;
  const versionChoices = versionOptions(versions.data ?? [], liveVersionId);
  const defaultValue = defaultVersionId(versions.data ?? [], liveVersionId);
  const version = versionChoices.some((option) => option.value === versionId) ? versionId : defaultValue;
  const datasetKnown = datasets.data?.some((item) => item.id === datasetId) ?? false;

  const start = useStartSimulation({ onSuccess: ({ id }) => navigate(`/simulations/${id}`) });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (datasetKnown && packId && version) {
      start.mutate({
        datasetId: datasetId!,
        packId,
        ...(version !== pack?.liveVersionId ? { packVersionId: version } : {}),
        ...(name.trim() ? { name: name.trim() } : {}),
      });
    }
  };

  return (
    <form onSubmit={submit} aria-label="Start a simulation">
      <Stack gap="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              comboboxProps={ONE_LISTBOX}
              label="Dataset"
              placeholder={datasets.isPending ? 'Loading…' : 'Choose a dataset'}
              data={(datasets.data ?? []).map((item) => ({
                value: item.id,
                label: `${item.name} (${countLabel(item.ticketCount, 'ticket')})`,
              }))}
              value={datasetKnown ? datasetId : null}
              onChange={setDatasetId}
              disabled={datasets.isPending}
              allowDeselect={false}
              required
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              comboboxProps={ONE_LISTBOX}
              label="Pack"
              placeholder={packs.isPending ? 'Loading…' : 'Choose a pack'}
              data={(packs.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
              value={packId}
              onChange={(value) => {
                setPackId(value);
                setVersionId(null);
              }}
              disabled={packs.isPending}
              allowDeselect={false}
              required
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <Select
              comboboxProps={ONE_LISTBOX}
              label="Version"
              placeholder={
                !packId ? 'Choose a pack first' : versions.isPending ? 'Loading…' : 'Choose a version'
              }
              data={versionChoices}
              value={version}
              onChange={setVersionId}
              disabled={!packId || versions.isPending}
              allowDeselect={false}
              required
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <TextInput
              label="Name"
              description="Optional: shown in lists instead of the date, for example “Draft with stricter refunds”."
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={200}
              error={start.error instanceof ApiError ? start.error.issueFor('name') : undefined}
            />
          </Grid.Col>
        </Grid>
        <Text size="xs" c="dimmed">
          The live version runs unless you pick another; pick Draft to try unpublished changes.
        </Text>
        {datasets.data?.length === 0 && (
          <Text size="sm">
            No datasets yet:{' '}
            <Anchor component={Link} to="/datasets">
              create one and upload tickets
            </Anchor>
            .
          </Text>
        )}
        {packs.data?.length === 0 && (
          <Text size="sm">
            No packs yet:{' '}
            <Anchor component={Link} to="/packs">
              create a pack
            </Anchor>
            .
          </Text>
        )}
        {datasets.error && <ErrorNotice error={datasets.error} title="Could not load datasets" />}
        {packs.error && <ErrorNotice error={packs.error} title="Could not load packs" />}
        {versions.error && <ErrorNotice error={versions.error} title="Could not load the pack's versions" />}
        {start.error && <ErrorNotice error={start.error} title="Could not start the simulation" />}
        <Button
          type="submit"
          loading={start.isPending}
          disabled={!datasetKnown || !packId || !version}
          style={{ alignSelf: 'flex-start' }}
        >
          Start simulation
        </Button>
      </Stack>
    </form>
  );
}
