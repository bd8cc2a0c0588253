import { Button, Group, Paper } from '@mantine/core';
import { Link } from 'react-router';
import { Empty } from '../../ui/states';

/** What a new account sees instead of empty charts: where to start. */
export function NewAccount() {
  return (
    <Paper withBorder p="md">
      <Empty title="No evaluations yet">
        Create a pack of questions, publish it, then judge a first ticket in the playground. Your figures will
        show up here.
      </Empty>
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
