import { SimpleGrid, Stack } from '@mantine/core';
import { DailySection } from './DailySection';
import { useStats } from '../../api/queries/stats';
import { NewAccount } from './NewAccount';
import { RecentRuns } from './RecentRuns';
import { ReviewBacklog } from './ReviewBacklog';
import { StatCards } from './StatCards';
import { WebhookFailures } from './WebhookFailures';
import { QueryState } from '../../ui/states';
import { isNewAccount } from './dashboard';
import { PageHeader } from '../../ui/PageHeader';

export default function DashboardPage() {
  const stats = useStats();
  return (
    <Stack>
      <PageHeader title="Dashboard" />
      <QueryState query={stats}>
        {(data) =>
          isNewAccount(data) ? (
            <NewAccount />
          ) : (
            <>
              <StatCards stats={data} />
              <DailySection daily={data.daily} />
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                <ReviewBacklog count={data.reviewsToLabel} />
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
