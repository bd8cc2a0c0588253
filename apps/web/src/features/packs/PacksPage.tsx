import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ImportPackModal } from './ImportPackModal';
import { NewPackModal } from './NewPackModal';
import { PacksTable } from './PacksTable';
import { usePacks } from '../../api/queries/packs';
import { Empty, QueryState } from '../../ui/states';

/** /packs: every pack with its draft and live state; create or import one. */
export default function PacksPage() {
  const packs = usePacks();
  const [creating, createModal] = useDisclosure();
  const [importing, importModal] = useDisclosure();
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>Packs</Title>
          <Text c="dimmed" size="sm">
            Question packs the judge answers for every ticket. Edit a draft, then publish it.
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" onClick={importModal.open}>
            Import pack
          </Button>
          <Button onClick={createModal.open}>New pack</Button>
        </Group>
      </Group>
      <QueryState query={packs}>
        {(list) =>
          list.length ? (
            <PacksTable packs={list} />
          ) : (
            <Empty title="No packs yet">
              Create a pack with New pack, or import an export with Import pack.
            </Empty>
          )
        }
      </QueryState>
      <NewPackModal opened={creating} onClose={createModal.close} />
      <ImportPackModal opened={importing} onClose={importModal.close} />
    </Stack>
  );
}
