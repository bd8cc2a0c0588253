import { Anchor, Badge, Breadcrumbs, Group, Stack, Tabs, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { AlertRulesPanel } from './AlertRulesPanel';
import { AuditTab } from './AuditTab';
import { CompareTab } from './CompareTab';
import { DeletePackButton } from './DeletePackButton';
import { DraftEditor } from './DraftEditor';
import { ExportButton } from './ExportButton';
import { usePack } from '../../api/queries/packs';
import { ShadowTab } from './ShadowTab';
import { VersionsTab } from './VersionsTab';
import { AlertsPanel } from '../../ui/AlertsPanel';
import { PageHeader } from '../../ui/PageHeader';
import { ErrorNotice, Loading } from '../../ui/states';
import { formatDateTime } from '../../lib/format';

/**
 * /packs/:packId: the draft editor, the versions, a comparison of two versions, shadow runs on live
 * traffic, the audit settings and the pack's quality alerts.
 */
export default function PackPage() {
  const { packId = '' } = useParams();
  const query = usePack(packId);
  const pack = query.data;
  const [tab, setTab] = useState<string | null>('draft');
  const [draftDirty, setDraftDirty] = useState(false);
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to="/packs" size="sm">
          Packs
        </Anchor>
        <Text size="sm">{pack?.name ?? 'Pack'}</Text>
      </Breadcrumbs>
      <PageHeader
        title={pack?.name ?? 'Pack'}
        description={
          pack && (
            <Group gap="xs">
              {pack.liveVersionId ? (
                <Badge color="green" variant="light">
                  Published
                </Badge>
              ) : (
                <Badge color="gray" variant="light">
                  Not published
                </Badge>
              )}
              <Text size="sm" c="dimmed">
                {pack.document.questions.length} questions in the draft · updated{' '}
                {formatDateTime(pack.updatedAt)}
              </Text>
            </Group>
          )
        }
        actions={
          pack && (
            <>
              <ExportButton packId={pack.id} />
              <DeletePackButton packId={pack.id} name={pack.name} />
            </>
          )
        }
      />
      {query.isPending && <Loading label="Loading the pack" />}
      {query.error && <ErrorNotice error={query.error} title="The pack could not be loaded" />}
      {pack && (
        <>
          <Tabs value={tab} onChange={setTab}>
            <Tabs.List>
              <Tabs.Tab value="draft">Draft</Tabs.Tab>
              <Tabs.Tab value="versions">Versions</Tabs.Tab>
              <Tabs.Tab value="compare">Compare</Tabs.Tab>
              <Tabs.Tab value="shadow">Shadow</Tabs.Tab>
              <Tabs.Tab value="audit">Audit</Tabs.Tab>
              <Tabs.Tab value="alerts">Alerts</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="draft" pt="md">
              <DraftEditor
                key={`${pack.draftVersionId}:${pack.updatedAt}`}
                pack={pack}
                onDirtyChange={setDraftDirty}
                onShowShadow={() => setTab('shadow')}
              />
            </Tabs.Panel>
            <Tabs.Panel value="versions" pt="md">
              <VersionsTab pack={pack} draftDirty={draftDirty} onRestored={() => setTab('draft')} />
            </Tabs.Panel>
            <Tabs.Panel value="compare" pt="md">
              <CompareTab pack={pack} />
            </Tabs.Panel>
            <Tabs.Panel value="shadow" pt="md">
              <ShadowTab pack={pack} />
            </Tabs.Panel>
            <Tabs.Panel value="audit" pt="md">
              <AuditTab packId={pack.id} />
            </Tabs.Panel>
            <Tabs.Panel value="alerts" pt="md">
              <Stack>
                <AlertsPanel packId={pack.id} />
                <AlertRulesPanel packId={pack.id} />
              </Stack>
            </Tabs.Panel>
          </Tabs>
        </>
      )}
    </Stack>
  );
}
