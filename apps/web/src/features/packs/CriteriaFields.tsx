import { Button, Group, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import {
  DERIVE_TARGETS,
  OUTCOMES,
  removeAt,
  replaceAt,
  withKey,
  type ChoiceOption,
  type Question,
} from './packs';

const NONE = 'none';
const OUTCOME_DATA = [{ value: NONE, label: 'None' }, ...OUTCOMES.map((value) => ({ value, label: value }))];
const DERIVE_DATA = [
  { value: NONE, label: 'Nothing' },
  ...DERIVE_TARGETS.map((value) => ({ value, label: value })),
];

type QuestionOf<T extends Question['type']> = Extract<Question, { type: T }>;

export interface CriteriaProps<T extends Question['type']> {
  question: QuestionOf<T>;
  onChange: (question: Question) => void;
  /** The issue message at a path relative to the question, e.g. `criteria.max`. */
  issue: (...paths: string[]) => string | undefined;
}

function setCriteria(question: Question, key: string, value: unknown): Question {
  return { ...question, criteria: withKey(question.criteria, key, value) } as Question;
}

function selectValue(value: string | null): string | undefined {
  return value === null || value === NONE ? undefined : value;
}

export function ChoiceCriteriaFields({ question, onChange, issue }: CriteriaProps<'choice'>) {
  const { options } = question.criteria;
  const setOptions = (next: ChoiceOption[]) => onChange(setCriteria(question, 'options', next));
  const setOption = (index: number, key: string, value: unknown) =>
    setOptions(replaceAt(options, index, withKey(options[index], key, value)));
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        Options
      </Text>
      {issue('criteria.options') && (
        <Text c="red" size="sm" role="alert">
          {issue('criteria.options')}
        </Text>
      )}
      {options.map((option, index) => (
        <Paper key={index} withBorder p="xs">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
            <TextInput
              label="Option value"
              required
              value={option.value}
              onChange={(event) => setOption(index, 'value', event.currentTarget.value)}
              error={issue(`criteria.options.${index}.value`, `criteria.options.${index}`)}
            />
            <TextInput
              label="Option description"
              value={option.description ?? ''}
              onChange={(event) => setOption(index, 'description', event.currentTarget.value)}
              error={issue(`criteria.options.${index}.description`)}
            />
            <Select
              label="Option outcome"
              data={OUTCOME_DATA}
              allowDeselect={false}
              value={option.outcome ?? NONE}
              onChange={(value) => setOption(index, 'outcome', selectValue(value))}
              error={issue(`criteria.options.${index}.outcome`)}
            />
          </SimpleGrid>
          <Group justify="flex-end" mt="xs">
            <Button
              size="xs"
              variant="subtle"
              color="red"
              aria-label={`Remove option ${index + 1}`}
              onClick={() => setOptions(removeAt(options, index))}
            >
              Remove option
            </Button>
          </Group>
        </Paper>
      ))}
      <Group justify="space-between" align="flex-end">
        <Button size="xs" variant="light" onClick={() => setOptions([...options, { value: '' }])}>
          Add option
        </Button>
        <Select
          label="Derive"
          description="Copies the chosen value into the result"
          data={DERIVE_DATA}
          allowDeselect={false}
          w={220}
          value={question.criteria.derive ?? NONE}
          onChange={(value) => onChange(setCriteria(question, 'derive', selectValue(value)))}
          error={issue('criteria.derive')}
        />
      </Group>
    </Stack>
  );
}

export function BooleanCriteriaFields({ question, onChange, issue }: CriteriaProps<'boolean'>) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
      <TextInput
        label="Criteria description"
        value={question.criteria.description ?? ''}
        onChange={(event) => onChange(setCriteria(question, 'description', event.currentTarget.value))}
        error={issue('criteria.description')}
      />
      {(['outcomeWhenTrue', 'outcomeWhenFalse'] as const).map((key) => (
        <Select
          key={key}
          label={key === 'outcomeWhenTrue' ? 'Outcome when true' : 'Outcome when false'}
          data={OUTCOME_DATA}
          allowDeselect={false}
          value={question.criteria[key] ?? NONE}
          onChange={(value) => onChange(setCriteria(question, key, selectValue(value)))}
          error={issue(`criteria.${key}`)}
        />
      ))}
    </SimpleGrid>
  );
}

export function ScoreCriteriaFields({ question, onChange, issue }: CriteriaProps<'score'>) {
  const setNumber = (key: string, value: number | string) =>
    onChange(setCriteria(question, key, typeof value === 'number' ? value : undefined));
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
      <NumberInput
        label="Minimum score"
        required
        value={question.criteria.min ?? ''}
        onChange={(value) => setNumber('min', value)}
        error={issue('criteria.min')}
      />
      <NumberInput
        label="Maximum score"
        required
        value={question.criteria.max ?? ''}
        onChange={(value) => setNumber('max', value)}
        error={issue('criteria.max')}
      />
      <TextInput
        label="Criteria description"
        value={question.criteria.description ?? ''}
        onChange={(event) => onChange(setCriteria(question, 'description', event.currentTarget.value))}
        error={issue('criteria.description')}
      />
    </SimpleGrid>
  );
}
