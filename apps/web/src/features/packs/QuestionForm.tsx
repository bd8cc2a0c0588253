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
import type { Question } from '../../lib/pack-document';
import { changeQuestionType, defaultThresholdText, QUESTION_TYPES, withKey } from './packs';
import { ThresholdPreview } from './ThresholdPreview';
import type { DraftForm } from './draft-inputs';
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
  packId: string;
  form: DraftForm;
  question: Question;
  index: number;
  /** How many questions the draft has, for the move buttons. */
  count: number;
}

/** One question of the draft: the common fields, then the criteria of its type. */
export function QuestionForm({ packId, form, question, index, count }: Props) {
  const path = `document.questions.${index}`;
  /** The first error at one of `paths`, relative to the question (`criteria.max`). */
  const error = (...paths: string[]) =>
    paths.map((relative) => form.errors[`${path}.${relative}`]).find(Boolean);
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
            onChange={(value) => value && form.setFieldValue(path, changeQuestionType(question, value))}
            error={error('type')}
          />
          <TextInput
            label="Question ID"
            placeholder="letters, digits, _ or -"
            required
            {...form.getInputProps(`${path}.id`)}
          />
          <TextInput label="Question name" required {...form.getInputProps(`${path}.name`)} />
          <NumberInput
            label="Minimum selected probability"
            aria-describedby={`${path}-threshold-help`}
            min={0}
            max={1}
            step={0.05}
            decimalScale={4}
            value={typeof threshold === 'number' ? threshold : ''}
            // The whole review object, so that a document without one (raw JSON) gets one.
            onChange={(value) =>
              form.setFieldValue(
                `${path}.review`,
                withKey(review, 'minSelectedProbability', typeof value === 'number' ? value : undefined),
              )
            }
            error={error('review.minSelectedProbability', 'review')}
          />
        </SimpleGrid>
        <Stack gap={2} id={`${path}-threshold-help`}>
          <Text size="sm" c="dimmed">
            Minimum selected probability: when the model gives its chosen answer a probability below this, the
            ticket goes to review (equal passes). Higher sends more tickets to people; 0 never sends a ticket
            to review for this question's confidence. {defaultThresholdText(question)}
          </Text>
          <ThresholdPreview
            packId={packId}
            questionId={typeof question.id === 'string' ? question.id : ''}
            threshold={typeof threshold === 'number' ? threshold : undefined}
          />
        </Stack>
        <Textarea
          label="Instructions"
          autosize
          minRows={2}
          maxRows={8}
          {...form.getInputProps(`${path}.instructions`)}
          value={typeof question.instructions === 'string' ? question.instructions : ''}
        />
        {error('criteria') && (
          <Text c="red" size="sm" role="alert">
            {error('criteria')}
          </Text>
        )}
        <Criteria question={question} form={form} path={path} error={error} />
        <Group justify="flex-end">
          <Button
            variant="default"
            size="xs"
            aria-label={`Move up question ${index + 1}`}
            disabled={index === 0}
            onClick={() => form.reorderListItem('document.questions', { from: index, to: index - 1 })}
          >
            Move up
          </Button>
          <Button
            variant="default"
            size="xs"
            aria-label={`Move down question ${index + 1}`}
            disabled={index === count - 1}
            onClick={() => form.reorderListItem('document.questions', { from: index, to: index + 1 })}
          >
            Move down
          </Button>
          <Button
            variant="subtle"
            color="red"
            size="xs"
            aria-label={`Remove question ${index + 1}`}
            onClick={() => form.removeListItem('document.questions', index)}
          >
            Remove question
          </Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
