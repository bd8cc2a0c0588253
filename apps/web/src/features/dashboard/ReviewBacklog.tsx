import { Button, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatCount } from '../../lib/format';
import { Panel } from '../../ui/Panel';

/** Unlabeled reviews; the link opens the queue with the dashboard's choice of sources. */
export function ReviewBacklog({ count, experiments = false }: { count: number; experiments?: boolean }) {
  return (
    <Panel title="Review backlog" align="flex-start">
      <Text fz={28} fw={700} lh={1.2}>
        {formatCount(count)}
      </Text>
      <Text size="sm" c="dimmed">
        {count === 0
          ? 'Every evaluation sent to review has a label.'
          : `${count === 1 ? 'Evaluation' : 'Evaluations'} in review without a label.`}
      </Text>
      <Button
        component={Link}
        to={experiments ? '/reviews?labeled=false&experiments=true' : '/reviews?labeled=false'}
        variant="light"
      >
        Open the review queue
      </Button>
    </Panel>
  );
}
