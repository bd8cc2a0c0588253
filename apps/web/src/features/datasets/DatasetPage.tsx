import '@mantine/dropzone/styles.css';
import { Button, Stack, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { DatasetTemplateLink } from './DatasetTemplateLink';
import { DeleteDataset } from './DeleteDataset';
import { useDataset } from '../../api/queries/datasets';
import { TicketBrowser } from './TicketBrowser';
import { UploadTickets } from './UploadTickets';
import { PageHeader } from '../../ui/PageHeader';
import { Panel } from '../../ui/Panel';
import { QueryState } from '../../ui/states';
import { countLabel, formatDateTime } from '../../lib/format';

/** One dataset: upload tickets (CSV or JSON), browse them, run a simulation, delete it. */
export default function DatasetPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  return (
    <Stack gap="lg">
      <PageHeader
        back={{ to: '/datasets', label: 'All datasets' }}
        title={dataset.data?.name ?? 'Dataset'}
        description={
          dataset.data &&
          `${countLabel(dataset.data.ticketCount, 'ticket')} · created ${formatDateTime(dataset.data.createdAt)}`
        }
        actions={
          dataset.data && (
            <>
              <Button component={Link} to={`/simulations?datasetId=${encodeURIComponent(dataset.data.id)}`}>
                Run a simulation
              </Button>
              <DeleteDataset datasetId={dataset.data.id} name={dataset.data.name} />
            </>
          )
        }
      />
      <QueryState query={dataset}>
        {(data) => (
          <>
            <Panel title="Upload tickets" size="h4">
              <UploadTickets dataset={data} />
              <DatasetTemplateLink />
            </Panel>
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
