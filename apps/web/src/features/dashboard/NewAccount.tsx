import { Button, Group, Paper } from '@mantine/core';
import { Link } from 'react-router';
import { Empty } from '../../ui/states';

/**
 * What a new account sees instead of empty charts: where to start. `liveOnly`: the dashboard shows
 * live traffic, and the playground's and simulations' evaluations may exist behind the switch.
 */
export function NewAccount({ liveOnly = false }: { liveOnly?: boolean }) {
  return (
    <Paper withBorder p="md">
      {liveOnly ? (
        <Empty title="No live evaluations yet">
          Evaluations from the API, webhooks and MCP show up here. Turn on “Include playground and
          simulations” to see your experiments; to start, create a pack of questions, publish it, then judge a
          first ticket in the playground.
        </Empty>
      ) : (
        <Empty title="No evaluations yet">
          Create a pack of questions, publish it, then judge a first ticket in the playground. Your figures
          will show up here.
        </Empty>
      )}
      <Group justify="center" pb="md">
        <Button component={Link} to="/packs">
          Go to Packs
        </Button>
        <Button component={Link} to="/playground" variant="light">
          Open the Playground
        </Button>
      </Group>
    </Paper>
  );
}
