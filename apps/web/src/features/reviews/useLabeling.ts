import { notifications } from '@mantine/notifications';
import type { Schemas } from '../../api/client';
import { useCreateLabel, useCreateLabels, useDeleteLabel } from '../../api/queries/evaluations';

export interface LabelInput {
  questionId: string;
  answer: Schemas['AnswerDto'];
  note?: string;
}

/** Writing (one, or agreeing with every remaining answer) and deleting labels of one evaluation; the evaluation, the queue and stats refresh after. */
export function useLabeling(evaluationId: string) {
  const label = useCreateLabel(evaluationId, {
    onSuccess: (saved) => {
      notifications.show({
        color: saved.agreement ? 'green' : 'blue',
        message: saved.agreement
          ? 'Label saved: agrees with the model'
          : 'Label saved: differs from the model',
      });
    },
  });

  const unlabel = useDeleteLabel(evaluationId, {
    onSuccess: () => notifications.show({ message: 'Label deleted' }),
  });

  const agreeAll = useCreateLabels(evaluationId, {
    onSuccess: (saved) =>
      notifications.show({
        color: 'green',
        message: `${saved.length} ${saved.length === 1 ? 'label' : 'labels'} saved: agree with the model`,
      }),
  });

  return { label, unlabel, agreeAll };
}
