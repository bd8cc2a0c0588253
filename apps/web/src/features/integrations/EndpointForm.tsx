import { Alert, Button, Checkbox, Group, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError, type Schemas } from '../../api/client';
import { useSaveWebhookEndpoint } from '../../api/queries/integrations';
import { fieldError, validateEndpointUrl } from './integrations';
import { ErrorNotice } from '../../ui/states';

/** Saves the completion endpoint; saving again replaces it and issues a new secret. */
export function EndpointForm({
  replacing,
  onSaved,
  onCancel,
}: {
  replacing: boolean;
  onSaved: (saved: Schemas['SavedWebhookEndpointDto']) => void;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState('');
  const [requireSignature, setRequireSignature] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const save = useSaveWebhookEndpoint({ onSuccess: onSaved });
  const apiError = save.error instanceof ApiError ? save.error : undefined;
  const serverUrlError = fieldError(apiError, 'url');
  const urlError = (submitted ? validateEndpointUrl(url) : undefined) ?? serverUrlError;

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (validateEndpointUrl(url)) return;
    save.mutate({ url: url.trim(), requireInboundSignature: requireSignature });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Endpoint URL"
          description="Completed evaluations are POSTed here, signed with the endpoint's secret."
          placeholder="https://helpdesk.example.com/hooks/ticket-judge"
          inputMode="url"
          autoComplete="url"
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={urlError}
          required
        />
        <Checkbox
          label="Require signed inbound requests"
          description="Refuse tickets sent to the inbound webhook without a valid X-Service-Signature."
          checked={requireSignature}
          onChange={(event) => setRequireSignature(event.currentTarget.checked)}
        />
        {replacing && (
          <Alert color="yellow" p="xs">
            Saving replaces the current endpoint and issues a new signing secret; the current one stops
            working at once.
          </Alert>
        )}
        {save.error && !serverUrlError ? (
          <ErrorNotice error={save.error} title="Could not save the endpoint" />
        ) : null}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save endpoint
          </Button>
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
