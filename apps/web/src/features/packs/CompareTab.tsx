import { Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { usePackComparison, usePackVersionDocument, usePackVersions } from '../../api/queries/packs';
import { versionLabel } from '../../lib/versions';
import { documentForVersion, type PackDocument } from '../../lib/pack-document';
import { QueryState } from '../../ui/states';
import { ComparisonResult } from './ComparisonResult';

/** The Compare tab: two versions (live and draft at first) and the questions that differ. */
export function CompareTab({ pack }: { pack: Schemas['PackDto'] }) {
  const versions = usePackVersions(pack.id);
  return <QueryState query={versions}>{(list) => <ComparePicker pack={pack} versions={list} />}</QueryState>;
}

function ComparePicker({
  pack,
  versions,
}: {
  pack: Schemas['PackDto'];
  versions: Schemas['PackVersionDto'][];
}) {
  const [from, setFrom] = useState<string | null>(
    pack.liveVersionId ?? versions[1]?.id ?? pack.draftVersionId,
  );
  const [to, setTo] = useState<string | null>(pack.draftVersionId);
  const data = versions.map((version) => ({
    value: version.id,
    label: versionLabel(versions, version, pack.liveVersionId),
  }));
  const fromVersion = useVersionDocument(pack, from);
  const toVersion = useVersionDocument(pack, to);
  const comparison = usePackComparison(pack.id, from, to);
  return (
    <Stack>
      <Group grow preventGrowOverflow={false} wrap="wrap" align="flex-end">
        <Select
          label="From version"
          data={data}
          value={from}
          onChange={setFrom}
          allowDeselect={false}
          miw={220}
        />
        <Select label="To version" data={data} value={to} onChange={setTo} allowDeselect={false} miw={220} />
      </Group>
      {versions.length < 2 && (
        <Text size="sm" c="dimmed">
          This pack has only its draft. Publish it to have versions to compare.
        </Text>
      )}
      {from && to && (
        <QueryState query={comparison}>
          {(result) => <ComparisonResult comparison={result} from={fromVersion} to={toVersion} />}
        </QueryState>
      )}
    </Stack>
  );
}

/**
 * A version's document: the draft and the live one are already in the pack; any other comes from
 * GET /api/packs/{packId}/versions/{versionId}.
 */
function useVersionDocument(pack: Schemas['PackDto'], versionId: string | null): PackDocument | undefined {
  const known = versionId ? documentForVersion(pack, versionId) : undefined;
  const fetched = usePackVersionDocument(pack.id, versionId, !known);
  return known ?? fetched.data;
}
