import { Alert, Input, List, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { Schemas } from '../../api/client';
import { ErrorNotice } from '../../ui/states';
import { useUploadTickets } from '../../api/queries/datasets';
import { UploadRefused, uploadTicketsFile } from './uploadTickets';
import { uploadSummary } from './datasets';

const ACCEPT = { 'text/csv': ['.csv'], 'application/json': ['.json'] };

function Refusal({ refusal }: { refusal: UploadRefused }) {
  const reason = refusal.message.replace(/\.$/, '');
  return (
    <Alert color="red" title="Upload refused" role="alert">
      <Stack gap="xs">
        <Text size="sm">
          {reason.charAt(0).toUpperCase() + reason.slice(1)}. Nothing from this file was stored.
        </Text>
        {refusal.rows.length > 0 && (
          <List size="sm" spacing={4}>
            {refusal.rows.map((row) => (
              <List.Item key={row.key}>
                <Text span fw={600} size="sm">
                  {row.where}:
                </Text>{' '}
                {row.messages.join('; ')}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Alert>
  );
}

/** A dropzone and a plain file input; a refusal is listed by line (CSV) or ticket (JSON). */
export function UploadTickets({ dataset }: { dataset: Schemas['DatasetDto'] }) {
  const { id: datasetId, ticketCount, maxTickets } = dataset;
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [rejected, setRejected] = useState<UploadRefused | null>(null);
  const upload = useUploadTickets((file: File) => uploadTicketsFile(datasetId, file), {
    onMutate: () => setRejected(null),
    onSuccess: (result) => {
      notifications.show({
        color: 'green',
        title: 'Tickets uploaded',
        message: uploadSummary(result),
      });
    },
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });

  const onReject = (rejections: FileRejection[]) => {
    upload.reset();
    const names = rejections.map((rejection) => rejection.file.name).join(', ');
    setRejected(new UploadRefused(`Only one .csv or .json file at a time can be uploaded (got ${names})`));
  };
  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (file) upload.mutate(file);
  };
  const refusal = rejected ?? (upload.error instanceof UploadRefused ? upload.error : null);

  return (
    <Stack gap="sm">
      <Dropzone
        onDrop={(files) => files[0] && upload.mutate(files[0])}
        onReject={onReject}
        accept={ACCEPT}
        multiple={false}
        loading={upload.isPending}
        activateOnKeyboard={false}
        inputProps={{ 'aria-label': 'Drop zone: choose a CSV or JSON file' }}
      >
        <Stack gap={4} align="center" py="lg" px="sm" style={{ pointerEvents: 'none' }}>
          <Dropzone.Idle>
            <Text fw={600} ta="center">
              Drop a .csv or .json file here, or click to choose one
            </Text>
          </Dropzone.Idle>
          <Dropzone.Accept>
            <Text fw={600}>Drop to upload</Text>
          </Dropzone.Accept>
          <Dropzone.Reject>
            <Text fw={600}>Only .csv and .json files</Text>
          </Dropzone.Reject>
          <Text size="sm" c="dimmed" ta="center">
            CSV: a header with subject and customerMessage (externalId optional, {'expected:<question id>'}{' '}
            for expected answers, other columns become metadata). JSON: {'{"tickets": [...]}'} or an array of
            tickets. Tickets whose external id is in the dataset already are skipped. At most {maxTickets}{' '}
            tickets per dataset; this one holds {ticketCount}.
          </Text>
        </Stack>
      </Dropzone>
      <Input.Wrapper label="Upload file" id={inputId} description="Or choose a file with the keyboard">
        <input
          id={inputId}
          aria-describedby={`${inputId}-description`}
          ref={input}
          type="file"
          accept=".csv,.json,text/csv,application/json"
          onChange={onChoose}
          disabled={upload.isPending}
          style={{ display: 'block', marginTop: 4, maxWidth: '100%' }}
        />
      </Input.Wrapper>
      {upload.isPending && (
        <Text size="sm" role="status">
          Uploading…
        </Text>
      )}
      {refusal && <Refusal refusal={refusal} />}
      {upload.error && !refusal && <ErrorNotice error={upload.error} title="Upload failed" />}
    </Stack>
  );
}
