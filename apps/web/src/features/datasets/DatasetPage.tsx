import '@mantine/dropzone/styles.css';
import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DeleteDataset } from './DeleteDataset';
import { useDataset } from '../../api/queries/datasets';
import { TicketBrowser } from './TicketBrowser';
import { UploadTickets } from './UploadTickets';
import { QueryState } from '../../ui/states';
import { countLabel, formatDateTime } from '../../lib/format';

/** One dataset: upload tickets (CSV or JSON), browse them, run a simulation, delete it. */
export default function DatasetPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  return (
    <Stack gap="lg">
      <Anchor component={Link} to="/datasets" size="sm">
        <span aria-hidden>← </span>All datasets
      </Anchor>
      <Title order={2} style={{ overflowWrap: 'anywhere' }}>
        {dataset.data?.name ?? 'Dataset'}
      </Title>
      <QueryState query={dataset}>
        {(data) => (
          <>
            <Group justify="space-between" align="flex-start" gap="sm">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Text c="dimmed" size="sm">
                  {countLabel(data.ticketCount, 'ticket')} · created {formatDateTime(data.createdAt)}
                </Text>
              </Stack>
              <Group gap="sm">
                <Button component={Link} to={`/simulations?datasetId=${encodeURIComponent(data.id)}`}>
                  Run a simulation
                </Button>
                <DeleteDataset datasetId={data.id} name={data.name} />
              </Group>
            </Group>
            <Paper withBorder p="md" component="section" aria-labelledby="upload-heading">
              <Title order={3} size="h4" id="upload-heading" mb="sm">
                Upload tickets
              </Title>
              <UploadTickets dataset={data} />
            </Paper>
            <section aria-labelledby="tickets-heading">
              <Title order={3} size="h4" id="tickets-heading" mb="sm">
                Tickets
              </Title>
              <TicketBrowser datasetId={data.id} />
            </section>
          </>
        )}
      </QueryState>
    </Stack>
  );
}
