import { Anchor, Grid, Stack, Text, Title } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Schemas } from '../../api/client';
import { EvaluationHeader } from './EvaluationHeader';
import { useEvaluation } from '../../api/queries/evaluations';
import { usePack } from '../../api/queries/packs';
import { QuestionReview } from './QuestionReview';
import { ShortcutsHint } from './ShortcutsHint';
import { TicketView } from './TicketView';
import { useLabeling } from './useLabeling';
import { useNextItem } from './useNextItem';
import { Empty, ErrorNotice, Loading } from '../../ui/states';
import { useReviewQueue } from '../../api/queries/reviews';
import {
  agreeingLabel,
  filtersSearch,
  queueName,
  queuePositionText,
  readFilters,
  reviewQuery,
} from './reviews';
import { firstUnlabeled, questionSpecs, remainingAgreements } from './reviews-questions';

function Review({ evaluation }: { evaluation: Schemas['EvaluationDto'] }) {
  const [searchParams] = useSearchParams();
  const filters = readFilters(searchParams);
  const pack = usePack(evaluation.packId);
  const { label, unlabel, agreeAll } = useLabeling(evaluation.id);
  const next = useNextItem(evaluation, filters);
  // The queue of the page's filters (cached when the reviewer came from it), for "3 of 247".
  const queue = useReviewQueue(reviewQuery(filters));
  const loaded = queue.data?.pages.flatMap((page) => page.items);
  const position = queuePositionText(evaluation.id, loaded, queue.data?.pages[0]);
  const [openForm, setOpenForm] = useState<string | null>(null);

  const specs = questionSpecs(evaluation, pack.data);
  const answers = evaluation.result.answers ?? {};
  const labelOf = (questionId: string) => evaluation.labels.find((item) => item.questionId === questionId);
  const save = (input: Parameters<typeof label.mutate>[0]) =>
    label.mutate(input, { onSuccess: () => setOpenForm(null) });
  const remaining = remainingAgreements(specs, evaluation.labels, answers);

  useHotkeys([
    [
      'a',
      () => {
        if (label.isPending) return;
        const target = firstUnlabeled(specs, evaluation.labels, answers, true);
        if (target) save({ questionId: target.id, answer: agreeingLabel(answers[target.id]) });
        else notifications.show({ message: 'No unlabeled question with a model answer to agree with' });
      },
    ],
    ['o', () => setOpenForm((firstUnlabeled(specs, evaluation.labels, answers) ?? specs[0])?.id ?? null)],
    ['n', () => next.mutate()],
  ]);

  return (
    <Stack gap="md">
      <EvaluationHeader
        evaluation={evaluation}
        packName={pack.data?.name}
        questionNames={new Map(specs.map((spec) => [spec.id, spec.name]))}
        search={filtersSearch(filters)}
        next={{
          run: () => next.mutate(),
          pending: next.isPending,
          noneLeft: next.data === null,
          error: next.error,
        }}
        position={position}
        queue={queueName(filters)}
        agreeAll={{
          run: () => agreeAll.mutate(remaining, { onSuccess: () => setOpenForm(null) }),
          pending: agreeAll.isPending,
          remaining: remaining.length,
          error: agreeAll.error,
        }}
      />
      <ShortcutsHint />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <TicketView ticket={evaluation.redactedTicket} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="md">
            {pack.isError && (
              <Text size="sm" c="dimmed">
                The pack could not be read, so questions are named by id.
              </Text>
            )}
            {!specs.length && <Empty title="No questions">This evaluation has no questions to label.</Empty>}
            {specs.length > 0 && !firstUnlabeled(specs, evaluation.labels, answers) && (
              <Text size="sm" fw={500} role="status">
                Every question has a label. Press n or “Next item” for the next one in the queue.
              </Text>
            )}
            {specs.map((spec) => {
              const current = labelOf(spec.id);
              const deletingThis = unlabel.variables !== undefined && unlabel.variables === current?.id;
              return (
                <QuestionReview
                  key={`${spec.id}-${current?.id ?? 'none'}`}
                  spec={spec}
                  answer={answers[spec.id]}
                  selectedProbability={evaluation.selectedProbabilities[spec.id]}
                  label={current}
                  formOpen={openForm === spec.id}
                  onOpenForm={() => setOpenForm(spec.id)}
                  onCloseForm={() => setOpenForm(null)}
                  onLabel={save}
                  onDelete={(labelId) => unlabel.mutate(labelId)}
                  saving={label.isPending && label.variables?.questionId === spec.id}
                  deleting={unlabel.isPending && deletingThis}
                  saveError={label.variables?.questionId === spec.id ? label.error : null}
                  deleteError={deletingThis ? unlabel.error : null}
                />
              );
            })}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export default function EvaluationPage() {
  const { evaluationId = '' } = useParams();
  const evaluation = useEvaluation(evaluationId);
  if (evaluation.isPending) return <Loading label="Loading the evaluation" />;
  if (evaluation.isError) {
    return (
      <Stack gap="md">
        <Title order={2}>Evaluation</Title>
        <ErrorNotice error={evaluation.error} title="Could not load this evaluation" />
        <Anchor component={Link} to="/reviews">
          Back to reviews
        </Anchor>
      </Stack>
    );
  }
  return <Review key={evaluation.data.id} evaluation={evaluation.data} />;
}
