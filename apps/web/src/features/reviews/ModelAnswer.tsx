import { Group, Text } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { answerText } from '../../lib/answers';
import { formatPercent } from '../../lib/format';
import { probabilityRows } from '../../lib/probabilities';
import { ProbabilityBars } from '../../ui/ProbabilityBars';
import type { QuestionSpec } from './reviews-questions';

/**
 * The model's answer to one question, with its probabilities when it gave them: the same list, in
 * the question's option order, as the playground's result.
 */
export function ModelAnswer({
  answer,
  selected,
  spec,
}: {
  answer: Schemas['AnswerDto'] | undefined;
  /** The selected answer's probability, as the API stored it for the decision rule. */
  selected: number | undefined;
  spec: QuestionSpec;
}) {
  if (!answer) {
    return (
      <Text size="sm" c="dimmed">
        The model gave no answer (the judgment failed).
      </Text>
    );
  }
  const rows = probabilityRows(
    answer,
    spec.options?.map((option) => option.value),
  );
  return (
    <>
      <Group gap="xs">
        <Text size="sm">Model answer:</Text>
        <Text size="sm" fw={700}>
          {answerText(answer)}
        </Text>
        {selected !== undefined && (
          <Text size="sm" c="dimmed">
            ({formatPercent(selected, 1)} sure)
          </Text>
        )}
      </Group>
      {rows.length > 1 && (
        <ProbabilityBars rows={rows} label={`Probabilities the model gave for ${spec.name}`} />
      )}
    </>
  );
}
