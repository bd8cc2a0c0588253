import { Anchor, Badge, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import type { PackDocument } from '../../lib/pack-document';
import { reasonText } from '../../lib/answers';
import { derivedFacts, statusColor } from './playground';
import { AnswerList } from './AnswerList';

interface Props {
  response: Schemas['PlaygroundJudgeResponseDto'];
  document: PackDocument | undefined;
  versionLabel: string;
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The judgment: status, review reasons, answers with probabilities, the derived fields the pack
 * derives, and cost. Each new judgment scrolls into view and takes focus (it renders below the form).
 */
export function JudgeResult({ response, document, versionLabel }: Props) {
  const { result } = response;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'start' });
    heading.current?.focus({ preventScroll: true });
  }, [response.evaluationId]);
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="judge-result-title">
      <Stack>
        <Group justify="space-between">
          <Title order={3} id="judge-result-title" ref={heading} tabIndex={-1}>
            Result
          </Title>
          <Badge size="xl" color={statusColor(result.status)} aria-label={`Decision: ${result.status}`}>
            {result.status}
          </Badge>
        </Group>
        <div>
          <Text fw={500} size="sm">
            Review reasons
          </Text>
          {result.reviewReasons.length ? (
            <List size="sm">
              {result.reviewReasons.map((reason) => (
                <List.Item key={reason}>{reasonText(reason)}</List.Item>
              ))}
            </List>
          ) : (
            <Text size="sm" c="dimmed">
              None
            </Text>
          )}
        </div>
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <Fact label="Latency">{result.latencyMs} ms</Fact>
          <Fact label="Input tokens">{result.usage ? result.usage.inputTokens : 'not reported'}</Fact>
          <Fact label="Output tokens">{result.usage ? result.usage.outputTokens : 'not reported'}</Fact>
          <Fact label="Model">{result.modelId}</Fact>
          <Fact label="Version">{versionLabel}</Fact>
          {derivedFacts(result.derived, document).map((fact) => (
            <Fact key={fact.label} label={fact.label}>
              {fact.value}
            </Fact>
          ))}
        </SimpleGrid>
        <Title order={4}>Answers</Title>
        <AnswerList answers={result.answers} document={document} />
        <Anchor component={Link} to={`/evaluations/${response.evaluationId}`} size="sm">
          Open the stored evaluation
        </Anchor>
      </Stack>
    </Card>
  );
}
