import { SimpleGrid, Stack } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { CostSection } from './CostSection';
import { DailySection } from './DailySection';
import { useStats } from '../../api/queries/stats';
import { NewAccount } from './NewAccount';
import { RecentRuns } from './RecentRuns';
import { QualityCard } from './QualityCard';
import { ReviewBacklog } from './ReviewBacklog';
import { StatCards } from './StatCards';
import { WebhookFailures } from './WebhookFailures';
import { QueryState } from '../../ui/states';
import { AlertsPanel } from '../../ui/AlertsPanel';
import { isNewAccount } from './dashboard';
import { PageHeader } from '../../ui/PageHeader';
import { ExperimentsSwitch } from '../../ui/ExperimentsSwitch';
import { includesExperiments, sourceFilter } from '../../lib/sources';

export default function DashboardPage() {
  const [searchParams] = useSearchParams();
  const experiments = includesExperiments(searchParams);
  const stats = useStats(sourceFilter(experiments));
  return (
    <Stack>
      <PageHeader
        title="Dashboard"
        description={
          experiments
            ? 'Every evaluation: live traffic, the playground and simulations.'
            : 'Live traffic: evaluations from the API, webhooks and MCP.'
        }
        actions={<ExperimentsSwitch />}
      />
      <QueryState query={stats}>
        {(data) =>
          isNewAccount(data) ? (
            <NewAccount liveOnly={!experiments} />
          ) : (
            <>
              <StatCards stats={data} />
              <AlertsPanel />
              <DailySection daily={data.daily} />
              {data.cost && <CostSection cost={data.cost} />}
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
                <QualityCard quality={data.quality} />
                <ReviewBacklog count={data.reviewsToLabel} experiments={experiments} />
                <RecentRuns runs={data.recentRuns} />
                <WebhookFailures failures={data.recentWebhookFailures} count={data.webhookFailureCount} />
              </SimpleGrid>
            </>
          )
        }
      </QueryState>
    </Stack>
  );
}
