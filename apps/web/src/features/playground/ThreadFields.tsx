import { Button, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { removeAt, replaceAt } from './arrays';
import { MESSAGE_ROLES, type MessageRow } from './playground';

interface Props {
  messages: MessageRow[];
  onChange: (messages: MessageRow[]) => void;
  /** The issue at `ticket.messages…` (relative path, e.g. `0.text`; '' for the whole list). */
  issue: (path: string) => string | undefined;
}

const ROLE_DATA = MESSAGE_ROLES.map((role) => ({ value: role, label: role }));

/** The optional thread: earlier messages, each with a role and text. */
export function ThreadFields({ messages, onChange, issue }: Props) {
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        Thread (optional)
      </Text>
      {issue('') && (
        <Text c="red" size="sm" role="alert">
          {issue('')}
        </Text>
      )}
      {messages.map((message, index) => (
        <Paper key={index} withBorder p="xs">
          <Stack gap="xs">
            <Group align="flex-end" justify="space-between">
              <Select
                label="Role"
                data={ROLE_DATA}
                allowDeselect={false}
                value={message.role}
                w={160}
                onChange={(role) => role && onChange(replaceAt(messages, index, { ...message, role: role }))}
                error={issue(`${index}.role`)}
              />
              <Button
                variant="subtle"
                color="red"
                size="xs"
                aria-label={`Remove message ${index + 1}`}
                onClick={() => onChange(removeAt(messages, index))}
              >
                Remove message
              </Button>
            </Group>
            <Textarea
              label="Message text"
              autosize
              minRows={2}
              maxRows={8}
              value={message.text}
              onChange={(event) =>
                onChange(replaceAt(messages, index, { ...message, text: event.currentTarget.value }))
              }
              error={issue(`${index}.text`) ?? issue(`${index}`)}
            />
          </Stack>
        </Paper>
      ))}
      <Button
        variant="light"
        size="xs"
        style={{ alignSelf: 'flex-start' }}
        onClick={() =>
          onChange([...messages, { role: messages.length % 2 ? 'customer' : 'agent', text: '' }])
        }
      >
        Add message
      </Button>
    </Stack>
  );
}
