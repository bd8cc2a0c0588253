import { Stack, Textarea, TextInput } from '@mantine/core';
import type { TicketForm } from './playground';
import { MetadataFields } from './MetadataFields';
import { ThreadFields } from './ThreadFields';

interface Props {
  form: TicketForm;
  onChange: (form: TicketForm) => void;
  /** The API's issue at a ticket path such as `ticket.subject`. */
  issue: (path: string) => string | undefined;
  metadataErrors: Record<number, string>;
}

/** The ticket: subject, customer message, and the optional thread and metadata. */
export function TicketFields({ form, onChange, issue, metadataErrors }: Props) {
  return (
    <Stack gap="sm">
      <TextInput
        label="Subject"
        required
        maxLength={1000}
        value={form.subject}
        onChange={(event) => onChange({ ...form, subject: event.currentTarget.value })}
        error={issue('ticket.subject')}
      />
      <Textarea
        label="Customer message"
        required
        autosize
        minRows={5}
        maxRows={16}
        value={form.customerMessage}
        onChange={(event) => onChange({ ...form, customerMessage: event.currentTarget.value })}
        error={issue('ticket.customerMessage')}
      />
      <ThreadFields
        messages={form.messages}
        onChange={(messages) => onChange({ ...form, messages })}
        issue={(path) => issue(path ? `ticket.messages.${path}` : 'ticket.messages')}
      />
      <MetadataFields
        rows={form.metadata}
        onChange={(metadata) => onChange({ ...form, metadata })}
        rowErrors={metadataErrors}
        error={issue('ticket.metadata')}
      />
    </Stack>
  );
}
