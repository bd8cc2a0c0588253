import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { removeAt, replaceAt } from './arrays';
import type { MetadataRow } from './playground';

interface Props {
  rows: MetadataRow[];
  onChange: (rows: MetadataRow[]) => void;
  /** Problems found here before sending, by row. */
  rowErrors: Record<number, string>;
  /** The API's issue about `ticket.metadata`, if any. */
  error?: string;
}

/** Optional metadata: key/value rows, sent as strings. */
export function MetadataFields({ rows, onChange, rowErrors, error }: Props) {
  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        Metadata (optional)
      </Text>
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
      {rows.map((row, index) => (
        <Group key={index} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            label="Key"
            flex={1}
            value={row.key}
            onChange={(event) => onChange(replaceAt(rows, index, { ...row, key: event.currentTarget.value }))}
            error={rowErrors[index]}
          />
          <TextInput
            label="Value"
            flex={1}
            value={row.value}
            onChange={(event) =>
              onChange(replaceAt(rows, index, { ...row, value: event.currentTarget.value }))
            }
          />
          <Button
            variant="subtle"
            color="red"
            size="xs"
            mt={26}
            aria-label={`Remove metadata row ${index + 1}`}
            onClick={() => onChange(removeAt(rows, index))}
          >
            Remove
          </Button>
        </Group>
      ))}
      <Button
        variant="light"
        size="xs"
        style={{ alignSelf: 'flex-start' }}
        onClick={() => onChange([...rows, { key: '', value: '' }])}
      >
        Add metadata
      </Button>
    </Stack>
  );
}
