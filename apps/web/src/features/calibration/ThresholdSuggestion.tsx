import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { errorMessage, type Schemas } from '../../api/client';
import { useEditDraftDocument } from '../../api/queries/packs';
import { useId } from 'react';
import {
  calibrationErrorText,
  coverageText,
  decimal,
  guaranteedMissingText,
  guaranteedTitle,
  labelsNeededText,
  withThreshold,
} from './calibration';
import { formatPercent } from '../../lib/format';

interface Props {
  packId: string;
  question: Schemas['QuestionCalibrationDto'];
  questionName: string;
  targetAgreement: number;
  /** The risk δ of the guaranteed threshold. */
  delta: number;
  liveThreshold: number | undefined;
  draftThreshold: number | undefined;
}

/**
 * The question's two thresholds: the guaranteed one, which the button writes into the draft, and the
 * point estimate, shown for comparison; and the calibration error, raw against calibrated.
 */
export function ThresholdSuggestion({
  packId,
  question,
  questionName,
  targetAgreement,
  delta,
  liveThreshold,
  draftThreshold,
}: Props) {
  const apply = useEditDraftDocument(
    packId,
    (document, { questionId, value }: { questionId: string; value: number }) =>
      withThreshold(document, questionId, value),
  );
  const reasonId = useId();
  const guaranteed = question.guaranteedMinSelectedProbability;
  const suggested = question.suggestedMinSelectedProbability;
  const errorText = calibrationErrorText(question.ece);
  const inDraft = draftThreshold !== undefined;
  // The API gives a point estimate from any number of labels; it is shown once there are enough.
  const needed = question.labelsNeededForSuggestion;

  const run = () => {
    if (guaranteed === null) return;
    apply.mutate(
      { questionId: question.questionId, value: guaranteed },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            title: 'Threshold saved to the draft',
            message: `${questionName} now sends answers below ${decimal(guaranteed, 4)} to review in the draft. Publish the pack to use it.`,
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
      <Group gap="sm" justify="space-between" wrap="wrap">
        <div>
          <Text size="sm" fw={600}>
            {guaranteedTitle(delta)}
          </Text>
          {guaranteed === null ? (
            <Text size="sm" c="dimmed" id={reasonId}>
              {guaranteedMissingText(question.auditLabelsNeeded, targetAgreement)}
            </Text>
          ) : (
            <Text size="sm">
              <b>{decimal(guaranteed, 4)}</b>,{' '}
              {coverageText(question.coverageAtGuaranteed) ?? 'coverage unknown'}: with probability at least{' '}
              {formatPercent(1 - delta)}, reviewers agree with at least {formatPercent(targetAgreement)} of
              the answers at or above it ({question.auditLabels} audit labels).
            </Text>
          )}
          {!inDraft && guaranteed !== null && (
            <Text size="sm" c="dimmed" id={reasonId}>
              The draft no longer has this question.
            </Text>
          )}
        </div>
        <Button
          onClick={run}
          loading={apply.isPending}
          disabled={guaranteed === null || !inDraft}
          aria-describedby={guaranteed === null || !inDraft ? reasonId : undefined}
        >
          Use guaranteed threshold in draft
        </Button>
      </Group>
      <Text size="sm" fw={600}>
        Point estimate
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
        <Text size="sm">
          <b>{decimal(suggested, 4)}</b> (the labeled answers at or above it agree at least{' '}
          {formatPercent(targetAgreement)}, with no allowance for chance;{' '}
          {formatPercent(question.reviewShareAtSuggested, 1)} of this version&apos;s evaluations would go to
          review for this question)
        </Text>
      )}
      {errorText && <Text size="sm">{errorText}</Text>}
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
