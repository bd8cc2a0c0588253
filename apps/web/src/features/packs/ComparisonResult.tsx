import { Badge, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { Schemas } from '../../api/client';
import { findQuestion, type PackDocument } from '../../lib/pack-document';
import { DataTable } from '../../ui/DataTable';
import { Empty } from '../../ui/states';
import { formatValue, valueAtPath } from './packs';
import { QuestionText } from './QuestionText';

/** A changed question's values, path by path: before (struck through) and after (in bold), highlighted. */
function ChangedValues({
  id,
  paths,
  from,
  to,
}: {
  id: string;
  paths: string[];
  from: PackDocument | undefined;
  to: PackDocument | undefined;
}) {
  const before = findQuestion(from, id);
  const after = findQuestion(to, id);
  if (!paths.length || !before || !after) return null;
  return (
    <DataTable
      caption={`Changed values of ${id}`}
      rows={paths.map((path) => ({ id: path, path }))}
      minWidth={480}
      columns={[
        {
          header: 'Field',
          rowHeader: true,
          cell: (row) => (
            <Text ff="monospace" size="sm">
              {row.path}
            </Text>
          ),
        },
        {
          header: 'From',
          cell: (row) => (
            <Text component="del" size="sm" c="var(--mantine-color-error)" style={{ whiteSpace: 'pre-wrap' }}>
              {formatValue(valueAtPath(before, row.path))}
            </Text>
          ),
        },
        {
          header: 'To',
          cell: (row) => (
            <Text
              component="ins"
              size="sm"
              fw={700}
              c="var(--mantine-color-green-light-color)"
              style={{ whiteSpace: 'pre-wrap', textDecoration: 'none' }}
            >
              {formatValue(valueAtPath(after, row.path))}
            </Text>
          ),
        },
      ]}
    />
  );
}

interface Props {
  comparison: Schemas['PackComparisonDto'];
  from: PackDocument | undefined;
  to: PackDocument | undefined;
}

const UNLOADED = 'Loading the text of this version…';

const SECTIONS = [
  { key: 'added', title: 'Added', color: 'green' },
  { key: 'removed', title: 'Removed', color: 'red' },
  { key: 'changed', title: 'Changed', color: 'orange' },
] as const;

/** Added, removed and changed questions, each with its "from" and "to" text side by side. */
export function ComparisonResult({ comparison, from, to }: Props) {
  const total = comparison.added.length + comparison.removed.length + comparison.changed.length;
  if (total === 0) return <Empty title="No differences">Both versions have the same questions.</Empty>;
  return (
    <Stack>
      {SECTIONS.map(({ key, title, color }) => (
        <Stack key={key} gap="xs">
          <Title order={3} size="h4">
            {title} ({comparison[key].length})
          </Title>
          {comparison[key].length === 0 && (
            <Text size="sm" c="dimmed">
              None
            </Text>
          )}
          {comparison[key].map((id) => (
            <Paper key={id} withBorder p="sm">
              <Group gap="xs" mb="xs">
                <Badge color={color} variant="light">
                  {title}
                </Badge>
                <Text fw={600} ff="monospace">
                  {id}
                </Text>
              </Group>
              <Grid>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
                    From
                  </Text>
                  <QuestionText
                    question={findQuestion(from, id)}
                    missing={key === 'added' ? 'Not in this version' : UNLOADED}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
                    To
                  </Text>
                  <QuestionText
                    question={findQuestion(to, id)}
                    missing={key === 'removed' ? 'Not in this version' : UNLOADED}
                  />
                </Grid.Col>
              </Grid>
              {key === 'changed' && (
                <ChangedValues id={id} paths={comparison.changedPaths?.[id] ?? []} from={from} to={to} />
              )}
            </Paper>
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
