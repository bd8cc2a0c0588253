import { Badge, Button, Group, List, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { ApiError, type Issue, type Schemas } from '../../api/client';
import { useSaveDraft } from '../../api/queries/packs';
import { hasChanges, parseDocumentJson } from './packs';
import { draftErrors, type DraftValues } from './draft-form';
import { ErrorNotice } from '../../ui/states';
import { UnsavedChangesGuard } from './UnsavedChangesGuard';
import { PublishButton } from './PublishButton';
import { QuestionList } from './QuestionList';

type View = 'form' | 'raw';

/**
 * The Draft tab: the pack name and the draft document, edited as forms or as raw JSON, then saved
 * (PATCH) or published from a bar that stays in view. Mount it with a key that changes when the saved
 * pack does, so it starts over. While edits are unsaved, leaving the page asks first.
 */
export function DraftEditor({
  pack,
  onDirtyChange,
  onShowShadow,
}: {
  pack: Schemas['PackDto'];
  /** Told whether the editor holds unsaved edits (the versions tab warns before a restore). */
  onDirtyChange?: (dirty: boolean) => void;
  /** Shows the Shadow tab (from the publish dialog's shadow summary). */
  onShowShadow?: () => void;
}) {
  const form = useForm<DraftValues>({ initialValues: { name: pack.name, document: pack.document } });
  const [view, setView] = useState<View>('form');
  const [raw, setRaw] = useState('');
  const [rawError, setRawError] = useState<string | undefined>();
  // The issues of the last refusal that name no field of the form.
  const [formIssues, setFormIssues] = useState<string[]>([]);
  const dirty = hasChanges(pack, form.getValues());
  useEffect(() => {
    onDirtyChange?.(dirty);
  }, [dirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange?.(false), [onDirtyChange]);

  function showIssues(issues: Issue[]) {
    const errors = draftErrors(issues);
    form.setErrors(errors.fields);
    setFormIssues(errors.form);
  }

  const save = useSaveDraft(pack.id, {
    onSuccess: () => notifications.show({ color: 'green', message: 'Draft saved' }),
    onError: (error) => showIssues(error instanceof ApiError ? error.issues : []),
  });

  function switchView(next: View) {
    if (next === view) return;
    if (next === 'raw') {
      setRaw(JSON.stringify(form.getValues().document, null, 2));
      setRawError(undefined);
    }
    setView(next);
  }

  function editRaw(text: string) {
    setRaw(text);
    const parsed = parseDocumentJson(text);
    setRawError(parsed.ok ? undefined : parsed.error);
    if (parsed.ok) form.setFieldValue('document', parsed.document);
  }

  return (
    <Stack>
      <UnsavedChangesGuard dirty={dirty} what="edits to the draft" />
      <TextInput
        label="Pack name"
        required
        maxLength={200}
        w={{ base: '100%', sm: 360 }}
        {...form.getInputProps('name')}
      />
      {save.error && <ErrorNotice error={save.error} title="The draft was not saved" />}
      {formIssues.length > 0 && (
        <List size="sm" c="red" role="alert" aria-label="Issues with the whole draft">
          {formIssues.map((message, index) => (
            <List.Item key={index}>{message}</List.Item>
          ))}
        </List>
      )}
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
        <QuestionList packId={pack.id} form={form} />
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
      <Paper
        component="section"
        aria-label="Save and publish"
        withBorder
        shadow="sm"
        p="sm"
        style={{ position: 'sticky', bottom: 0, zIndex: 2 }}
      >
        <Group justify="space-between" gap="xs">
          {dirty ? (
            <Badge color="orange" variant="light">
              Unsaved changes
            </Badge>
          ) : (
            <Text size="sm" c="dimmed">
              All changes saved
            </Text>
          )}
          <Group gap="xs">
            <Button
              onClick={() => save.mutate(form.getValues())}
              loading={save.isPending}
              disabled={!dirty || Boolean(rawError)}
            >
              Save draft
            </Button>
            <PublishButton pack={pack} dirty={dirty} onIssues={showIssues} onShowShadow={onShowShadow} />
          </Group>
        </Group>
      </Paper>
    </Stack>
  );
}
