import { Button, Group, Stack, Text } from '@mantine/core';
import { newQuestion, QUESTION_TYPES } from './packs';
import type { DraftForm } from './draft-inputs';
import { Empty } from '../../ui/states';
import { QuestionForm } from './QuestionForm';

/** The form view of the draft: a form per question, and buttons to add one of each type. */
export function QuestionList({ packId, form }: { packId: string; form: DraftForm }) {
  const { document } = form.getValues();
  const error = form.errors['document.questions'];
  return (
    <Stack>
      {document.questions.length === 0 && (
        <Empty title="No questions yet">
          Add a question below. A pack needs one before it can judge tickets.
        </Empty>
      )}
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
      {document.questions.map((question, index) => (
        <QuestionForm
          key={form.key(`document.questions.${index}`)}
          packId={packId}
          form={form}
          question={question}
          index={index}
          count={document.questions.length}
        />
      ))}
      <Group gap="xs">
        {QUESTION_TYPES.map((type) => (
          <Button
            key={type.value}
            variant="light"
            onClick={() => form.insertListItem('document.questions', newQuestion(type.value, document))}
          >
            Add {type.value} question
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
