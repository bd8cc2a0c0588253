import type { ReactNode } from 'react';
import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { Question } from '../../lib/pack-document';
import { DERIVE_TARGETS, OUTCOMES } from './packs';
import { NONE, numberProps, optionalSelectProps, optionalTextProps, type DraftForm } from './draft-inputs';

const OUTCOME_DATA = [{ value: NONE, label: 'None' }, ...OUTCOMES.map((value) => ({ value, label: value }))];
const DERIVE_DATA = [
  { value: NONE, label: 'Nothing' },
  ...DERIVE_TARGETS.map((value) => ({ value, label: value })),
];

/** Long descriptions wrap onto as many lines as they need. */
const MULTILINE = { autosize: true, minRows: 1, maxRows: 8 } as const;

const OUTCOME_HELP =
  'What this answer does to the ticket: accept it, send it to review, or reject it (review wins over reject, reject over accept). None: this answer decides nothing on its own.';
const DERIVE_HELP =
  'Copies the chosen option into the result for routing: derived.department or derived.priority (the value), or derived.tags (appended). Nothing: no copy.';

type QuestionOf<T extends Question['type']> = Extract<Question, { type: T }>;

export interface CriteriaProps<T extends Question['type']> {
  question: QuestionOf<T>;
  form: DraftForm;
  /** The question's form path, e.g. `document.questions.0`. */
  path: string;
  /** The first error at one of `paths`, relative to the question (`criteria.max`). */
  error: (...paths: string[]) => ReactNode;
}

export function ChoiceCriteriaFields({ question, form, path, error }: CriteriaProps<'choice'>) {
  const optionsPath = `${path}.criteria.options`;
  const optionsError = error('criteria.options');
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        Options
      </Text>
      {Boolean(optionsError) && (
        <Text c="red" size="sm" role="alert">
          {optionsError}
        </Text>
      )}
      {question.criteria.options.map((_, index) => (
        <Paper key={form.key(`${optionsPath}.${index}`)} withBorder p="xs">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <TextInput
              label="Option value"
              required
              {...form.getInputProps(`${optionsPath}.${index}.value`)}
              error={error(`criteria.options.${index}.value`, `criteria.options.${index}`)}
            />
            <Textarea
              label="Option description"
              {...MULTILINE}
              {...optionalTextProps(form, `${optionsPath}.${index}.description`)}
            />
            <Select
              label="Option outcome"
              description={index === 0 ? OUTCOME_HELP : undefined}
              data={OUTCOME_DATA}
              allowDeselect={false}
              {...optionalSelectProps(form, `${optionsPath}.${index}.outcome`)}
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="xs">
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Remove option ${index + 1}`}
              onClick={() => form.removeListItem(optionsPath, index)}
            >
              Remove option
            </Button>
          </Group>
        </Paper>
      ))}
      <Group justify="space-between" align="flex-end">
        <Button size="xs" variant="light" onClick={() => form.insertListItem(optionsPath, { value: '' })}>
          Add option
        </Button>
        <Select
          label="Derive"
          description={DERIVE_HELP}
          data={DERIVE_DATA}
          allowDeselect={false}
          w={{ base: '100%', sm: 360 }}
          {...optionalSelectProps(form, `${path}.criteria.derive`)}
        />
      </Group>
    </Stack>
  );
}

export function BooleanCriteriaFields({ form, path }: CriteriaProps<'boolean'>) {
  return (
    <Stack gap="xs">
      <Textarea
        label="Criteria description"
        {...MULTILINE}
        {...optionalTextProps(form, `${path}.criteria.description`)}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        {(['outcomeWhenTrue', 'outcomeWhenFalse'] as const).map((key) => (
          <Select
            key={key}
            label={key === 'outcomeWhenTrue' ? 'Outcome when true' : 'Outcome when false'}
            description={OUTCOME_HELP}
            data={OUTCOME_DATA}
            allowDeselect={false}
            {...optionalSelectProps(form, `${path}.criteria.${key}`)}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

export function ScoreCriteriaFields({ form, path }: CriteriaProps<'score'>) {
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <NumberInput label="Minimum score" required {...numberProps(form, `${path}.criteria.min`)} />
        <NumberInput label="Maximum score" required {...numberProps(form, `${path}.criteria.max`)} />
      </SimpleGrid>
      <Textarea
        label="Criteria description"
        {...MULTILINE}
        {...optionalTextProps(form, `${path}.criteria.description`)}
      />
    </Stack>
  );
}
