import { Button, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ImportPackModal } from './ImportPackModal';
import { NewPackModal } from './NewPackModal';
import { PacksTable } from './PacksTable';
import { usePacks } from '../../api/queries/packs';
import { PageHeader } from '../../ui/PageHeader';
import { QueryState } from '../../ui/states';

/** /packs: every pack with its draft and live state; create or import one. */
export default function PacksPage() {
  const packs = usePacks();
  const [creating, createModal] = useDisclosure();
  const [importing, importModal] = useDisclosure();
  return (
    <Stack>
      <PageHeader
        title="Packs"
        description="Question packs the judge answers for every ticket. Edit a draft, then publish it."
        actions={
          <>
            <Button variant="default" onClick={importModal.open}>
              Import pack
            </Button>
            <Button onClick={createModal.open}>New pack</Button>
          </>
        }
      />
      <QueryState query={packs}>{(list) => <PacksTable packs={list} />}</QueryState>
      <NewPackModal opened={creating} onClose={createModal.close} />
      <ImportPackModal opened={importing} onClose={importModal.close} />
    </Stack>
  );
}
