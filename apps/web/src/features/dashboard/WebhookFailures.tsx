import { Anchor, Group, List, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { shortId } from '../../lib/format';
import { countLabel } from '../../lib/format';
import { formatStatusCode } from './dashboard';
import { Panel } from '../../ui/Panel';
import { When } from '../../ui/When';

export function WebhookFailures({
  failures,
  count,
}: {
  failures: Schemas['WebhookFailureDto'][];
  count: number;
}) {
  return (
    <Panel title="Webhook failures" align="flex-start">
      <Text size="sm" fw={count ? 600 : undefined} c={count ? undefined : 'dimmed'}>
        {count
          ? `${countLabel(count, 'completion delivery', 'completion deliveries')} currently failed.`
          : 'No failed completion deliveries.'}
      </Text>
      {failures.length > 0 && (
        <List listStyleType="none" spacing="xs" w="100%">
          {failures.map((failure) => (
            <List.Item key={failure.id}>
              <Group gap="xs" justify="space-between">
                <Anchor component={Link} to={`/evaluations/${failure.evaluationId}`} size="sm">
                  Evaluation {shortId(failure.evaluationId)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatStatusCode(failure.lastStatusCode)} · <When iso={failure.updatedAt} />
                </Text>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      <Anchor component={Link} to="/integrations" size="sm">
        See deliveries in Integrations
      </Anchor>
    </Panel>
  );
}
