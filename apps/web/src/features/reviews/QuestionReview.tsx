import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { errorMessage } from '../../api/client';
import { answerText } from '../../lib/answers';
import { agreeingLabel } from './reviews';
import type { QuestionSpec } from './reviews-questions';
import { LabelForm } from './LabelForm';
import { ModelAnswer } from './ModelAnswer';
import type { LabelInput } from './useLabeling';

interface Props {
  spec: QuestionSpec;
  answer: Schemas['AnswerDto'] | undefined;
  /** As the API stored it for the decision rule. */
  selectedProbability: number | undefined;
  label: Schemas['LabelDto'] | undefined;
  formOpen: boolean;
  onOpenForm: () => void;
  onCloseForm: () => void;
  onLabel: (input: LabelInput) => void;
  onDelete: (labelId: string) => void;
  /** This question's pending writes, and the errors of its last ones. */
  saving: boolean;
  deleting: boolean;
  saveError: unknown;
  deleteError: unknown;
}

function CurrentLabel({
  label,
  onDelete,
  deleting,
}: {
  label: Schemas['LabelDto'];
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <Card withBorder padding="sm" radius="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Stack gap={2}>
          <Group gap="xs">
            <Text size="sm">Your label:</Text>
            <Text size="sm" fw={700}>
              {answerText(label.answer)}
            </Text>
            <Badge color={label.agreement ? 'green' : 'orange'} variant="dot">
              {label.agreement ? 'Agrees with model' : 'Differs from model'}
            </Badge>
          </Group>
          {label.note && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              Note: {label.note}
            </Text>
          )}
        </Stack>
        <Button variant="subtle" color="red" size="xs" onClick={onDelete} loading={deleting}>
          Delete label
        </Button>
      </Group>
    </Card>
  );
}

/** One question of an evaluation: the model's answer, the label, and the controls to label it. */
export function QuestionReview(props: Props) {
  const { spec, answer, label, formOpen, saving, deleting, saveError, deleteError } = props;
  const error = deleteError ?? (formOpen ? null : saveError);
  const headingId = `question-${spec.id}`;
  const agree = () => answer && props.onLabel({ questionId: spec.id, answer: agreeingLabel(answer) });

  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <div>
          <Group gap="xs">
            <Title order={3} size="h4" id={headingId}>
              {spec.name}
            </Title>
            <Badge variant="outline" size="sm">
              {spec.type}
            </Badge>
            {!label && (
              <Badge color="gray" size="sm">
                unlabeled
              </Badge>
            )}
          </Group>
          {spec.instructions && (
            <Text size="sm" c="dimmed">
              {spec.instructions}
            </Text>
          )}
        </div>
        <ModelAnswer answer={answer} selected={props.selectedProbability} spec={spec} />
        {label && (
          <CurrentLabel label={label} onDelete={() => props.onDelete(label.id)} deleting={deleting} />
        )}
        {error ? (
          <Alert color="red" role="alert" p="xs">
            {errorMessage(error)}
          </Alert>
        ) : null}
        {formOpen ? (
          <LabelForm
            spec={spec}
            current={label}
            pending={saving}
            error={saveError}
            onSave={(labelAnswer, note) => props.onLabel({ questionId: spec.id, answer: labelAnswer, note })}
            onCancel={props.onCloseForm}
          />
        ) : (
          <Group gap="xs">
            <Button
              onClick={agree}
              disabled={!answer}
              loading={saving}
              title={answer ? undefined : 'No model answer to agree with'}
            >
              Agree
            </Button>
            <Button variant="default" onClick={props.onOpenForm}>
              Other answer
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
