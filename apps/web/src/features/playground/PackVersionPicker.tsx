import { Anchor, Select, SimpleGrid, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { versionOptions } from '../../lib/versions';
import { usePacks, usePackVersions } from '../../api/queries/packs';
import { ErrorNotice } from '../../ui/states';

interface Props {
  packId: string | null;
  versionId: string | null;
  onPack: (packId: string | null) => void;
  onVersion: (versionId: string | null) => void;
  packError?: string;
  versionError?: string;
}

/** The "Pack" and "Version" selects; the version list comes from the chosen pack. */
export function PackVersionPicker({ packId, versionId, onPack, onVersion, packError, versionError }: Props) {
  const packs = usePacks();
  const versions = usePackVersions(packId ?? undefined);
  const pack: Schemas['PackListItemDto'] | undefined = packs.data?.find((item) => item.id === packId);
  if (packs.error) return <ErrorNotice error={packs.error} title="The packs could not be loaded" />;
  const noPacks = packs.data?.length === 0;
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="Pack"
          placeholder={packs.isPending ? 'Loading packs…' : 'Choose a pack'}
          data={(packs.data ?? []).map((item) => ({ value: item.id, label: item.name }))}
          value={packId}
          onChange={onPack}
          searchable
          nothingFoundMessage="No pack has that name"
          disabled={packs.isPending || noPacks}
          error={packError}
        />
        <Select
          label="Version"
          placeholder={packId ? 'Loading versions…' : 'Choose a pack first'}
          data={pack && versions.data ? versionOptions(versions.data, pack.liveVersionId) : []}
          value={versionId}
          onChange={onVersion}
          allowDeselect={false}
          disabled={!packId || !versions.data}
          error={versionError ?? (versions.error ? 'The versions could not be loaded' : undefined)}
        />
      </SimpleGrid>
      {noPacks && (
        <Text size="sm" c="dimmed">
          You have no packs yet.{' '}
          <Anchor component={Link} to="/packs">
            Create one on the Packs page
          </Anchor>
          .
        </Text>
      )}
      {pack && !pack.liveVersionId && (
        <Text size="sm" c="dimmed">
          This pack is not published, so the playground judges with its draft.
        </Text>
      )}
    </>
  );
}
