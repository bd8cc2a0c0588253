import { Alert, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { errorMessage, type Schemas } from '../../api/client';
import {
  useDeleteWebhookEndpoint,
  useTestWebhookEndpoint,
  useWebhookEndpoints,
} from '../../api/queries/integrations';
import { QueryState } from '../../ui/states';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { DeliveriesTable } from './DeliveriesTable';
import { describeInboundSignature, describeTestResult } from './integrations';
import { EndpointForm } from './EndpointForm';
import { SecretModal } from './SecretModal';
import { Section } from './Section';

type Endpoint = Schemas['WebhookEndpointDto'];

function RemoveEndpointModal({ endpoint, onClose }: { endpoint: Endpoint; onClose: () => void }) {
  const remove = useDeleteWebhookEndpoint(endpoint.id, { onSuccess: onClose });
  return (
    <ConfirmModal
      title="Remove the completion endpoint?"
      confirmLabel="Remove"
      action={remove}
      errorTitle="Could not remove the endpoint"
      onClose={onClose}
    >
      Completions stop being sent to {endpoint.url}. Deliveries still waiting will fail, and tickets judged
      from now on are not delivered anywhere.
    </ConfirmModal>
  );
}

/** "Send a test event": one signed request to the saved endpoint, its status and time shown below. */
function EndpointTest({ endpoint }: { endpoint: Endpoint }) {
  const test = useTestWebhookEndpoint(endpoint.id);
  const outcome = test.data ? describeTestResult(test.data) : null;
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button variant="default" loading={test.isPending} onClick={() => test.mutate()}>
          Send a test event
        </Button>
        <Text size="sm" c="dimmed">
          One signed endpoint.test request, not retried and not listed under deliveries.
        </Text>
      </Group>
      <div role="status" aria-live="polite">
        {test.isError && (
          <Alert color="red" title="Could not send the test event">
            {errorMessage(test.error)}
          </Alert>
        )}
        {outcome && !test.isPending && (
          <Alert
            color={outcome.ok ? 'teal' : 'red'}
            title={outcome.ok ? 'Test event received' : 'Test event failed'}
          >
            {outcome.summary}
          </Alert>
        )}
      </div>
    </Stack>
  );
}

function CurrentEndpoint({
  endpoint,
  onChange,
  onRemove,
}: {
  endpoint: Endpoint;
  onChange: () => void;
  onRemove: () => void;
}) {
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500}>
        Current endpoint
      </Text>
      <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {endpoint.url}
      </Code>
      <Text size="sm">Inbound requests: {describeInboundSignature(endpoint.requireInboundSignature)}</Text>
      <Group gap="sm">
        <Button variant="default" onClick={onChange}>
          Change endpoint
        </Button>
        <Button variant="light" color="red" onClick={onRemove}>
          Remove endpoint
        </Button>
      </Group>
      <EndpointTest key={endpoint.id} endpoint={endpoint} />
    </Stack>
  );
}

export function CompletionEndpointSection() {
  const endpoints = useWebhookEndpoints();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState<Endpoint | null>(null);
  const [saved, setSaved] = useState<Schemas['SavedWebhookEndpointDto'] | null>(null);

  return (
    <Section
      title="Completion endpoint"
      covered={removing !== null || saved !== null}
      description="Tickets sent to POST /api/webhooks/inbound are judged in the background; each completed evaluation is POSTed to this URL, signed with HMAC-SHA256 in the X-Service-Signature header."
    >
      <QueryState query={endpoints}>
        {(list) => {
          const endpoint = list[0];
          return endpoint && !editing ? (
            <CurrentEndpoint
              endpoint={endpoint}
              onChange={() => setEditing(true)}
              onRemove={() => setRemoving(endpoint)}
            />
          ) : (
            <EndpointForm
              replacing={Boolean(endpoint)}
              onCancel={endpoint ? () => setEditing(false) : undefined}
              onSaved={(result) => {
                setEditing(false);
                setSaved(result);
              }}
            />
          );
        }}
      </QueryState>
      <Title order={4}>Recent deliveries</Title>
      <DeliveriesTable />
      {removing && <RemoveEndpointModal endpoint={removing} onClose={() => setRemoving(null)} />}
      {saved && (
        <SecretModal
          title="Copy your signing secret"
          label="Endpoint secret"
          secret={saved.secret}
          onClose={() => setSaved(null)}
        >
          Completions to {saved.url} are signed with this whole string (whsec_ prefix included) as the
          HMAC-SHA256 key. Use the same key to sign inbound requests.
        </SecretModal>
      )}
    </Section>
  );
}
