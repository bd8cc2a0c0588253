import { Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { recentRunDetail, recentRunTitle } from './recent-runs';
import { Panel } from '../../ui/Panel';
import { When } from '../../ui/When';

const RUN_COLORS: Record<string, string> = {
  queued: 'gray',
  running: 'blue',
  completed: 'teal',
  failed: 'red',
  cancelled: 'orange',
};

export function RecentRuns({ runs }: { runs: Schemas['RecentRunDto'][] }) {
  return (
    <Panel title="Recent simulations" align="flex-start">
      {runs.length === 0 ? (
        <Text size="sm" c="dimmed">
          No simulations yet.{' '}
          <Anchor component={Link} to="/simulations" underline="always">
            Start a simulation
          </Anchor>
        </Text>
      ) : (
        <List listStyleType="none" spacing="xs" w="100%">
          {runs.map((run) => (
            <List.Item key={run.id}>
              <Group gap="xs" justify="space-between">
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Anchor
                    component={Link}
                    to={`/simulations/${run.id}`}
                    size="sm"
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {recentRunTitle(run)}
                  </Anchor>
                  {recentRunDetail(run) && (
                    <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {recentRunDetail(run)}
                    </Text>
                  )}
                </Stack>
                <Group gap="xs" wrap="nowrap">
                  <Badge variant="dot" color={RUN_COLORS[run.status] ?? 'gray'} style={{ flexShrink: 0 }}>
                    {run.status}
                  </Badge>
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    <When iso={run.createdAt} />
                  </Text>
                </Group>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
    </Panel>
  );
}
