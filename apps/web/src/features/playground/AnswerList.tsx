import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { choiceOptions, findQuestion, type PackDocument } from '../../lib/pack-document';
import { answerText } from '../../lib/answers';
import { probabilityRows } from '../../lib/probabilities';
import { answerOrder } from './playground';
import { Empty } from '../../ui/states';
import { ProbabilityBars } from '../../ui/ProbabilityBars';

interface Props {
  answers: Schemas['JudgmentResultDto']['answers'];
  /** The judged version's document, when loaded (names and option order). */
  document: PackDocument | undefined;
}

/** One card per question: the answer and its probabilities. */
export function AnswerList({ answers, document }: Props) {
  const ids = answerOrder(answers, document);
  if (ids.length === 0)
    return <Empty title="No answers">The judgment failed before any question was answered.</Empty>;
  return (
    <Stack gap="sm">
      {ids.map((id) => {
        const answer = answers[id];
        const question = findQuestion(document, id);
        return (
          <Paper key={id} withBorder p="sm">
            <Group justify="space-between" mb="xs" gap="xs">
              <div>
                <Text fw={600}>{question?.name ?? id}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {id} · {answer.type}
                </Text>
              </div>
              <Badge variant="outline" size="lg" tt="none">
                Answer: {answerText(answer, question)}
              </Badge>
            </Group>
            <ProbabilityBars
              rows={probabilityRows(
                answer,
                question ? choiceOptions(question).map((option) => option.value) : [],
              )}
              label={`Probabilities the model gave for ${question?.name ?? id}`}
            />
          </Paper>
        );
      })}
    </Stack>
  );
}
