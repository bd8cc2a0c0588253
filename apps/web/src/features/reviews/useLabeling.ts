import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../../api/client';

export interface LabelInput {
  questionId: string;
  answer: Schemas['AnswerDto'];
  note?: string;
}

/** Writing and deleting labels of one evaluation; the evaluation, the queue and stats refresh after. */
export function useLabeling(evaluationId: string) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    void queryClient.invalidateQueries({ queryKey: ['reviews'] });
    void queryClient.invalidateQueries({ queryKey: ['stats'] });
    await queryClient.invalidateQueries({ queryKey: ['evaluations', evaluationId] });
  };

  const label = useMutation({
    mutationFn: (input: LabelInput) =>
      unwrap(
        api.POST('/api/evaluations/{id}/labels', { params: { path: { id: evaluationId } }, body: input }),
      ),
    onSuccess: async (saved) => {
      await refresh();
      notifications.show({
        color: saved.agreement ? 'green' : 'blue',
        message: saved.agreement
          ? 'Label saved: agrees with the model'
          : 'Label saved: differs from the model',
      });
    },
  });

  const unlabel = useMutation({
    mutationFn: (labelId: string) =>
      unwrap(
        api.DELETE('/api/evaluations/{id}/labels/{labelId}', {
          params: { path: { id: evaluationId, labelId } },
        }),
      ),
    onSuccess: async () => {
      await refresh();
      notifications.show({ message: 'Label deleted' });
    },
  });

  return { label, unlabel };
}
