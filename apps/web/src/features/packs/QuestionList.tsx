import { Button, Group, Stack } from '@mantine/core';
import type { Issue } from '../../api/client';
import { newQuestion, QUESTION_TYPES, removeAt, replaceAt, type PackDocument } from './packs';
import { Empty } from '../../ui/states';
import { QuestionForm } from './QuestionForm';

interface Props {
  document: PackDocument;
  issues: Issue[];
  onChange: (document: PackDocument) => void;
}

/** The form view of the draft: a form per question, and buttons to add one of each type. */
export function QuestionList({ document, issues, onChange }: Props) {
  const questions = document.questions;
  return (
    <Stack>
      {questions.length === 0 && (
        <Empty title="No questions yet">
          Add a question below. A pack needs one before it can judge tickets.
        </Empty>
      )}
      {questions.map((question, index) => (
        <QuestionForm
          key={index}
          question={question}
          index={index}
          issues={issues}
          onChange={(next) => onChange({ ...document, questions: replaceAt(questions, index, next) })}
          onRemove={() => onChange({ ...document, questions: removeAt(questions, index) })}
        />
      ))}
      <Group gap="xs">
        {QUESTION_TYPES.map((type) => (
          <Button
            key={type.value}
            variant="light"
            onClick={() =>
              onChange({ ...document, questions: [...questions, newQuestion(type.value, document)] })
            }
          >
            Add {type.value} question
          </Button>
        ))}
      </Group>
    </Stack>
  );
}
