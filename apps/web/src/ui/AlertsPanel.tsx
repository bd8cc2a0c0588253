import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'react-router';
import { useAcknowledgeAlert, useAlerts } from '../api/queries/alerts';
import { activeAlerts, alertStatusColor, alertTitle } from '../lib/alerts';
import { shortId } from '../lib/format';
import { Panel } from './Panel';
import { ErrorNotice, Loading } from './states';
import { When } from './When';

/**
 * The quality alerts still to act on (open, then acknowledged), of one pack or of every pack: what
 * changed and by how much, with links to example evaluations (docs/alerts.md). The dashboard and
 * the pack page both show it.
 */
export function AlertsPanel({ packId }: { packId?: string }) {
  const query = useAlerts(packId);
  const acknowledge = useAcknowledgeAlert({
    onSuccess: () => notifications.show({ color: 'green', message: 'Alert acknowledged' }),
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
  const alerts = activeAlerts(query.data ?? []);
  return (
    <Panel title="Quality alerts" align="stretch">
      {query.isPending && <Loading label="Loading the alerts" />}
      {query.error && <ErrorNotice error={query.error} title="The alerts could not be loaded" />}
      {query.data && alerts.length === 0 && (
        <Text size="sm" c="dimmed">
          No open alerts{packId ? ' on this pack' : ''}.
        </Text>
      )}
      {alerts.map((alert) => (
        <Stack key={alert.id} gap={4} component="article" aria-label={alertTitle(alert)}>
          <Group gap="xs" justify="space-between">
            <Group gap="xs">
              <Badge color={alertStatusColor(alert.status)} variant="light">
                {alert.status}
              </Badge>
              <Text fw={600} size="sm">
                {alertTitle(alert)}
              </Text>
              {!packId && (
                <Anchor component={Link} to={`/packs/${alert.packId}`} size="sm">
                  Pack {shortId(alert.packId)}
                </Anchor>
              )}
            </Group>
            {alert.status === 'open' && (
              <Button
                size="xs"
                variant="light"
                loading={acknowledge.isPending && acknowledge.variables === alert.id}
                onClick={() => acknowledge.mutate(alert.id)}
              >
                Acknowledge
              </Button>
            )}
          </Group>
          <Text size="sm">{alert.summary}</Text>
          <Text size="xs" c="dimmed">
            Measured since <When iso={alert.since} /> · opened <When iso={alert.createdAt} /> · checked{' '}
            <When iso={alert.updatedAt} />
          </Text>
          {alert.exampleEvaluationIds.length > 0 && (
            <Group gap="xs">
              <Text size="xs" c="dimmed">
                Examples:
              </Text>
              {alert.exampleEvaluationIds.map((id) => (
                <Anchor key={id} component={Link} to={`/evaluations/${id}`} size="xs">
                  {shortId(id)}
                </Anchor>
              ))}
            </Group>
          )}
        </Stack>
      ))}
    </Panel>
  );
}
