import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { errorMessage, type Schemas } from '../../api/client';
import { useEditDraftDocument } from '../../api/queries/packs';
import { decimal, labelsNeededText, withThreshold } from './calibration';
import { formatPercent } from '../../lib/format';

interface Props {
  packId: string;
  question: Schemas['QuestionCalibrationDto'];
  questionName: string;
  targetAgreement: number;
  liveThreshold: number | undefined;
  draftThreshold: number | undefined;
}

/** The suggested minSelectedProbability and the button that writes it into the draft. */
export function ThresholdSuggestion({
  packId,
  question,
  questionName,
  targetAgreement,
  liveThreshold,
  draftThreshold,
}: Props) {
  const apply = useEditDraftDocument(
    packId,
    (document, { questionId, value }: { questionId: string; value: number }) =>
      withThreshold(document, questionId, value),
  );
  const suggested = question.suggestedMinSelectedProbability;
  const inDraft = draftThreshold !== undefined;
  // The API gives a suggestion from any number of labels; it is offered once there are enough.
  const needed = question.labelsNeededForSuggestion;

  const run = () => {
    if (suggested === null) return;
    apply.mutate(
      { questionId: question.questionId, value: suggested },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            title: 'Threshold saved to the draft',
            message: `${questionName} now sends answers below ${decimal(suggested, 4)} to review in the draft. Publish the pack to use it.`,
          }),
      },
    );
  };

  return (
    <Stack gap="xs">
      <Text size="sm">
        Threshold (minSelectedProbability): live {decimal(liveThreshold, 4)}, draft{' '}
        {decimal(draftThreshold, 4)}.
      </Text>
      {needed > 0 ? (
        <Text size="sm" c="dimmed">
          {labelsNeededText(needed, question.labeled)}
        </Text>
      ) : suggested === null ? (
        <Text size="sm" c="dimmed">
          No threshold reaches {formatPercent(targetAgreement)} agreement with these labels.
        </Text>
      ) : (
        <Group gap="sm" justify="space-between" wrap="wrap">
          <Text size="sm">
            Suggested: <b>{decimal(suggested, 4)}</b> (answers at or above it agree at least{' '}
            {formatPercent(targetAgreement)}; {formatPercent(question.reviewShareAtSuggested, 1)} of this
            version&apos;s evaluations would go to review for this question)
          </Text>
          <Button
            onClick={run}
            loading={apply.isPending}
            disabled={!inDraft}
            title={inDraft ? undefined : 'The draft no longer has this question'}
          >
            Use suggested threshold
          </Button>
        </Group>
      )}
      {apply.isError && (
        <Alert color="red" role="alert" p="xs" title="Could not save the threshold">
          {errorMessage(apply.error)}
        </Alert>
      )}
      {apply.isSuccess && (
        <Alert color="green" p="xs" role="status">
          Saved in the draft. Publish the pack to apply it:{' '}
          <Anchor component={Link} to={`/packs/${packId}`} size="sm" c="inherit" fw={600} underline="always">
            open the pack
          </Anchor>
          .
        </Alert>
      )}
    </Stack>
  );
}
