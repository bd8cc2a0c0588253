import { Button, Group, NumberInput, Radio, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { errorMessage, type Schemas } from '../../api/client';
import { labelFromValue, valueFromLabel } from './reviews';
import type { QuestionSpec } from './reviews-questions';

interface Props {
  spec: QuestionSpec;
  /** The label being replaced, if any: the form starts from it. */
  current: Schemas['LabelDto'] | undefined;
  pending: boolean;
  error: unknown;
  onSave: (answer: Schemas['AnswerDto'], note: string) => void;
  onCancel: () => void;
}

function AnswerField({
  spec,
  value,
  onChange,
  error,
}: {
  spec: QuestionSpec;
  value: string | number | null;
  onChange: (value: string | number | null) => void;
  error?: string;
}) {
  if (spec.type === 'boolean') {
    return (
      <Radio.Group
        label="Answer"
        value={value === null ? null : String(value)}
        onChange={onChange}
        error={error}
        withAsterisk
      >
        <Group mt={4}>
          <Radio value="true" label="True" />
          <Radio value="false" label="False" />
        </Group>
      </Radio.Group>
    );
  }
  if (spec.type === 'score') {
    const range =
      spec.min !== undefined && spec.max !== undefined ? `from ${spec.min} to ${spec.max}` : undefined;
    return (
      <NumberInput
        label="Answer"
        description={range && `A score ${range}`}
        min={spec.min}
        max={spec.max}
        value={value ?? ''}
        onChange={onChange}
        error={error}
        withAsterisk
      />
    );
  }
  if (!spec.options) {
    return (
      <TextInput
        label="Answer"
        description="The option value"
        value={value === null ? '' : String(value)}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
        withAsterisk
      />
    );
  }
  return (
    <Select
      label="Answer"
      placeholder="Pick the right option"
      data={spec.options.map((option) => ({
        value: option.value,
        label: option.description ? `${option.value} — ${option.description}` : option.value,
      }))}
      value={value === null ? null : String(value)}
      onChange={onChange}
      error={error}
      searchable={spec.options.length > 7}
      withAsterisk
    />
  );
}

/** The reviewer's own answer to one question, with an optional note. */
export function LabelForm({ spec, current, pending, error, onSave, onCancel }: Props) {
  const [value, setValue] = useState<string | number | null>(valueFromLabel(current?.answer));
  const [note, setNote] = useState(current?.note ?? '');
  const [missing, setMissing] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  // Opened from a button or the `o` shortcut: the answer field takes the focus.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('input:not([type=hidden]), textarea')?.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const answer = labelFromValue(spec.type, value);
    setMissing(!answer);
    if (answer) onSave(answer, note);
  };

  return (
    <form ref={form} onSubmit={submit} aria-label={`Other answer for ${spec.name}`} noValidate>
      <Stack gap="sm">
        <AnswerField
          spec={spec}
          value={value}
          onChange={setValue}
          error={missing ? 'Give an answer' : error ? errorMessage(error) : undefined}
        />
        <Textarea
          label="Note"
          description="Optional: why the model's answer is wrong, for whoever tunes the pack"
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={2000}
          autosize
          minRows={2}
        />
        <Group gap="xs">
          <Button type="submit" loading={pending}>
            Save label
          </Button>
          <Button variant="subtle" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
