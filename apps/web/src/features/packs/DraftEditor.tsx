import { Badge, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ApiError, type Issue, type Schemas } from '../../api/client';
import { useSaveDraft } from '../../api/queries/packs';
import { hasChanges, issueAt, parseDocumentJson, type PackDocument } from './packs';
import { ErrorNotice } from '../../ui/states';
import { PublishButton } from './PublishButton';
import { QuestionList } from './QuestionList';

type View = 'form' | 'raw';

/**
 * The Draft tab: the pack name and the draft document, edited as forms or as raw JSON, then saved
 * (PATCH) or published. Mount it with a key that changes when the saved pack does, so it starts over.
 */
export function DraftEditor({ pack }: { pack: Schemas['PackDto'] }) {
  const [name, setName] = useState(pack.name);
  const [document, setDocument] = useState<PackDocument>(pack.document);
  const [view, setView] = useState<View>('form');
  const [raw, setRaw] = useState('');
  const [rawError, setRawError] = useState<string | undefined>();
  const [issues, setIssues] = useState<Issue[]>([]);
  const dirty = hasChanges(pack, { name, document });

  const save = useSaveDraft(pack.id, {
    onSuccess: () => notifications.show({ color: 'green', message: 'Draft saved' }),
    onError: (error) => setIssues(error instanceof ApiError ? error.issues : []),
  });

  function switchView(next: View) {
    if (next === view) return;
    if (next === 'raw') {
      setRaw(JSON.stringify(document, null, 2));
      setRawError(undefined);
    }
    setView(next);
  }

  function editRaw(text: string) {
    setRaw(text);
    const parsed = parseDocumentJson(text);
    setRawError(parsed.ok ? undefined : parsed.error);
    if (parsed.ok) setDocument(parsed.document);
  }

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label="Pack name"
          required
          maxLength={200}
          w={{ base: '100%', sm: 360 }}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={issueAt(issues, 'name')}
        />
        <Group gap="xs">
          {dirty ? (
            <Badge color="orange" variant="light">
              Unsaved changes
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              All changes saved
            </Text>
          )}
          <Button
            onClick={() => save.mutate({ name, document })}
            loading={save.isPending}
            disabled={!dirty || Boolean(rawError)}
          >
            Save draft
          </Button>
          <PublishButton packId={pack.id} dirty={dirty} onIssues={setIssues} />
        </Group>
      </Group>
      {save.error && <ErrorNotice error={save.error} title="The draft was not saved" />}
      <Button.Group aria-label="Editor view">
        <Button
          variant={view === 'form' ? 'filled' : 'default'}
          aria-pressed={view === 'form'}
          disabled={Boolean(rawError)}
          onClick={() => switchView('form')}
        >
          Form
        </Button>
        <Button
          variant={view === 'raw' ? 'filled' : 'default'}
          aria-pressed={view === 'raw'}
          onClick={() => switchView('raw')}
        >
          Raw JSON
        </Button>
      </Button.Group>
      {view === 'form' ? (
        <QuestionList document={document} issues={issues} onChange={setDocument} />
      ) : (
        <Textarea
          label="Raw JSON"
          description="The whole draft document. Unknown keys are kept. Fix any error here before going back to Form."
          autosize
          minRows={12}
          maxRows={40}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 13 } }}
          value={raw}
          onChange={(event) => editRaw(event.currentTarget.value)}
          error={rawError}
        />
      )}
    </Stack>
  );
}
