import { Input, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useId } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/client';
import { useImportPack } from '../../api/queries/packs';
import { parseImport } from './packs';
import { FormActions } from '../../ui/FormActions';
import { ErrorNotice } from '../../ui/states';

/** "Import pack": an export (`{name, document}`) uploaded as a file or pasted, as a new pack. */
export function ImportPackModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const fileInputId = useId();
  const [localError, setLocalError] = useState<string | undefined>();
  const navigate = useNavigate();
  const importPack = useImportPack({
    onSuccess: (pack) => {
      notifications.show({ color: 'green', message: `Pack "${pack.name}" imported` });
      close();
      void navigate(`/packs/${pack.id}`);
    },
  });
  const error = importPack.error;

  function close() {
    setName('');
    setText('');
    setLocalError(undefined);
    importPack.reset();
    onClose();
  }

  async function pick(picked: File | null) {
    setLocalError(undefined);
    if (picked) setText(await picked.text());
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseImport(text, name);
    setLocalError(parsed.ok ? undefined : parsed.error);
    if (parsed.ok) importPack.mutate(parsed.body);
  }

  return (
    <Modal opened={opened} onClose={close} title="Import pack" size="lg">
      <form onSubmit={submit}>
        <Stack>
          <Input.Wrapper label="JSON file" description="A file saved with Export" id={fileInputId}>
            <input
              id={fileInputId}
              aria-describedby={`${fileInputId}-description`}
              type="file"
              accept="application/json,.json"
              style={{ display: 'block', marginTop: 4, maxWidth: '100%' }}
              onChange={(event) => void pick(event.currentTarget.files?.[0] ?? null)}
            />
          </Input.Wrapper>
          <Textarea
            label="Pack JSON"
            description="Or paste an export here (a bare document with questions works too)"
            autosize
            minRows={6}
            maxRows={16}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              setLocalError(undefined);
            }}
            error={localError ?? (error instanceof ApiError ? error.issueFor('document') : undefined)}
          />
          <TextInput
            label="Name"
            description="Leave empty to keep the name in the export"
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.currentTarget.value)}
            error={error instanceof ApiError ? error.issueFor('name') : undefined}
          />
          {error && <ErrorNotice error={error} title="The pack was not imported" />}
          <Text size="xs" c="dimmed">
            The import becomes a new pack with a draft only; publish it from its page.
          </Text>
          <FormActions label="Import" pending={importPack.isPending} onCancel={close} />
        </Stack>
      </form>
    </Modal>
  );
}
