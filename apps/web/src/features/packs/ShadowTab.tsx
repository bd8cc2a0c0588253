import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { usePackVersions } from '../../api/queries/packs';
import { useShadowRun, useShadowRuns, useStopShadowRun } from '../../api/queries/shadow';
import { formatDateTime } from '../../lib/format';
import { versionLabel } from '../../lib/versions';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { DataTable } from '../../ui/DataTable';
import { Panel } from '../../ui/Panel';
import { QueryState } from '../../ui/states';
import { runScopeText, runStatusText } from './shadow';
import { ShadowReport } from './ShadowReport';
import { ShadowStartForm } from './ShadowStartForm';

type Run = Schemas['ShadowRunDto'];
type Version = Schemas['PackVersionDto'];

function StopRunButton({ run }: { run: Run }) {
  const stop = useStopShadowRun(run.id, {
    onSuccess: () =>
      notifications.show({ color: 'green', message: 'Shadow run stopped: its report is kept' }),
  });
  return (
    <ConfirmButton
      label="Stop run"
      buttonProps={{ color: 'red', variant: 'light' }}
      title="Stop the shadow run?"
      confirmLabel="Confirm stop"
      action={stop}
      errorTitle="The shadow run was not stopped"
    >
      No more live tickets are judged again; tickets drawn and not judged yet are dropped. The report is kept,
      and another run can start.
    </ConfirmButton>
  );
}

/** A run's version: a published one by its label; a frozen draft is not among the listed versions. */
function runVersionText(run: Run, versions: Version[], liveVersionId: string | null): string {
  const version = versions.find((item) => item.id === run.versionId);
  return version ? versionLabel(versions, version, liveVersionId) : 'Draft (frozen)';
}

function RunsTable({
  runs,
  versions,
  liveVersionId,
  selectedId,
  onSelect,
}: {
  runs: Run[];
  versions: Version[];
  liveVersionId: string | null;
  selectedId: string;
  onSelect: (id: string) => void;
}) {
  return (
    <DataTable
      rows={runs}
      minWidth={640}
      caption="Shadow runs of this pack, newest first"
      columns={[
        { header: 'Started', rowHeader: true, cell: (run) => formatDateTime(run.createdAt) },
        { header: 'Version', cell: (run) => runVersionText(run, versions, liveVersionId) },
        { header: 'Sample', cell: (run) => runScopeText(run) },
        { header: 'Status', cell: (run) => runStatusText(run) },
        {
          header: 'Report',
          cell: (run) => (
            <Button
              size="xs"
              variant={run.id === selectedId ? 'filled' : 'default'}
              aria-pressed={run.id === selectedId}
              aria-label={`Show report: run started ${formatDateTime(run.createdAt)}`}
              onClick={() => onSelect(run.id)}
            >
              Show report
            </Button>
          ),
        },
      ]}
    />
  );
}

function SelectedReport({ runId }: { runId: string }) {
  const run = useShadowRun(runId);
  return <QueryState query={run}>{(detail) => <ShadowReport run={detail} />}</QueryState>;
}

/**
 * The Shadow tab: start a run of a candidate version on live traffic, stop the active one, and read
 * the report of the newest run or of any past one.
 */
export function ShadowTab({ pack }: { pack: Schemas['PackDto'] }) {
  const runs = useShadowRuns(pack.id);
  const versions = usePackVersions(pack.id);
  const [picked, setPicked] = useState<string | null>(null);
  return (
    <QueryState
      query={{
        isPending: runs.isPending || versions.isPending,
        error: runs.error ?? versions.error,
        data: true,
      }}
    >
      {() => {
        const list = runs.data ?? [];
        const active = list.find((run) => run.status === 'active');
        const selectedId = list.some((run) => run.id === picked) ? picked! : list[0]?.id;
        return (
          <Stack>
            <Panel title="Start a shadow run">
              {active && (
                <Group justify="space-between" gap="xs">
                  <Text size="sm">
                    A run is active since {formatDateTime(active.createdAt)} ({runScopeText(active)}). Stop it
                    to start another.
                  </Text>
                  <StopRunButton run={active} />
                </Group>
              )}
              <ShadowStartForm
                pack={pack}
                versions={versions.data ?? []}
                active={Boolean(active)}
                onStarted={(run) => setPicked(run.id)}
              />
            </Panel>
            {list.length === 0 ? (
              <Text size="sm" c="dimmed">
                No shadow run yet. Its report shows here once one starts.
              </Text>
            ) : (
              <>
                <Panel title="Runs">
                  <RunsTable
                    runs={list}
                    versions={versions.data ?? []}
                    liveVersionId={pack.liveVersionId}
                    selectedId={selectedId ?? ''}
                    onSelect={setPicked}
                  />
                </Panel>
                {selectedId && <SelectedReport runId={selectedId} />}
              </>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
