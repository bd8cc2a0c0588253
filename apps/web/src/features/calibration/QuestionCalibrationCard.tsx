import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { decimal, FEW_LABELS, kappaStrength } from './calibration';
import { formatPercent } from '../../lib/format';
import { Empty } from '../../ui/states';
import { ConfusionTable } from './ConfusionTable';
import { ReliabilityChart } from './ReliabilityChart';
import { ThresholdSuggestion } from './ThresholdSuggestion';

interface Props {
  packId: string;
  question: Schemas['QuestionCalibrationDto'];
  questionName: string;
  targetAgreement: number;
  delta: number;
  liveThreshold: number | undefined;
  draftThreshold: number | undefined;
}

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </div>
  );
}

/** One question's calibration: figures, reliability, confusion matrix and the thresholds. */
export function QuestionCalibrationCard(props: Props) {
  const { question, questionName } = props;
  const headingId = `calibration-${question.questionId}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Stack gap="md">
        <Group gap="xs">
          <Title order={3} size="h4" id={headingId}>
            {questionName}
          </Title>
          <Badge variant="outline" size="sm">
            {question.type}
          </Badge>
        </Group>
        {question.labeled === 0 ? (
          <Empty title="No labels for this question yet">
            Label reviews of this pack to see how often the model is right.
          </Empty>
        ) : (
          <>
            <SimpleGrid cols={{ base: 2, sm: 3 }}>
              <Figure label="Labels" value={String(question.labeled)} />
              <Figure label="Agreement" value={formatPercent(question.agreementRate, 1)} />
              <Figure
                label="Cohen's kappa"
                value={decimal(question.kappa)}
                hint={question.type === 'score' ? 'not computed for scores' : kappaStrength(question.kappa)}
              />
            </SimpleGrid>
            {question.labeled < FEW_LABELS && (
              <Alert color="yellow" p="xs">
                Only {question.labeled} label{question.labeled === 1 ? '' : 's'}: these figures will move a
                lot as more come in.
              </Alert>
            )}
            <ThresholdSuggestion {...props} />
            <ReliabilityChart questionName={questionName} bins={question.reliability} />
            <ConfusionTable questionName={questionName} confusion={question.confusion} />
          </>
        )}
      </Stack>
    </Card>
  );
}
