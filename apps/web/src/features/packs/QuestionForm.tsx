import {
  Button,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { Issue } from '../../api/client';
import { changeQuestionType, issueAt, QUESTION_TYPES, withKey, type Question } from './packs';
import {
  BooleanCriteriaFields,
  ChoiceCriteriaFields,
  ScoreCriteriaFields,
  type CriteriaProps,
} from './CriteriaFields';

/** The criteria fields of the question's type; a type the form does not know gets a hint. */
function Criteria({
  question,
  ...props
}: Omit<CriteriaProps<Question['type']>, 'question'> & { question: Question }) {
  switch (question.type) {
    case 'choice':
      return <ChoiceCriteriaFields question={question} {...props} />;
    case 'boolean':
      return <BooleanCriteriaFields question={question} {...props} />;
    case 'score':
      return <ScoreCriteriaFields question={question} {...props} />;
    default:
      return (
        <Text size="sm" c="dimmed">
          Unknown question type: pick one above, or edit it in Raw JSON.
        </Text>
      );
  }
}

interface Props {
  question: Question;
  index: number;
  issues: Issue[];
  onChange: (question: Question) => void;
  onRemove: () => void;
}

/** One question of the draft: the common fields, then the criteria of its type. */
export function QuestionForm({ question, index, issues, onChange, onRemove }: Props) {
  const issue = (...paths: string[]) => issueAt(issues, ...paths.map((path) => `questions.${index}.${path}`));
  const review: Record<string, unknown> = question.review ?? {};
  const threshold = review.minSelectedProbability;
  return (
    <Fieldset legend={`Question ${index + 1}`}>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="xs">
          <Select
            label="Question type"
            data={QUESTION_TYPES}
            allowDeselect={false}
            value={question.type}
            onChange={(value) => value && onChange(changeQuestionType(question, value))}
            error={issue('type')}
          />
          <TextInput
            label="Question ID"
            placeholder="letters, digits, _ or -"
            required
            value={question.id ?? ''}
            onChange={(event) => onChange({ ...question, id: event.currentTarget.value })}
            error={issue('id')}
          />
          <TextInput
            label="Question name"
            required
            value={question.name ?? ''}
            onChange={(event) => onChange({ ...question, name: event.currentTarget.value })}
            error={issue('name')}
          />
          <NumberInput
            label="Minimum selected probability"
            title="Below this probability of the chosen answer, the ticket goes to review"
            min={0}
            max={1}
            step={0.05}
            decimalScale={4}
            value={typeof threshold === 'number' ? threshold : ''}
            onChange={(value) => {
              const next = withKey(
                review,
                'minSelectedProbability',
                typeof value === 'number' ? value : undefined,
              );
              onChange({ ...question, review: next as Question['review'] });
            }}
            error={issue('review.minSelectedProbability', 'review')}
          />
        </SimpleGrid>
        <Textarea
          label="Instructions"
          autosize
          minRows={2}
          maxRows={8}
          value={typeof question.instructions === 'string' ? question.instructions : ''}
          onChange={(event) => onChange({ ...question, instructions: event.currentTarget.value })}
          error={issue('instructions')}
        />
        {issue('criteria') && (
          <Text c="red" size="sm" role="alert">
            {issue('criteria')}
          </Text>
        )}
        <Criteria question={question} onChange={onChange} issue={issue} />
        <Group justify="flex-end">
          <Button
            variant="subtle"
            color="red"
            size="xs"
            aria-label={`Remove question ${index + 1}`}
            onClick={onRemove}
          >
            Remove question
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
