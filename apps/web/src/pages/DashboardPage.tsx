import { SimpleGrid, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DailySection } from '../components/dashboard/DailySection';
import { statsQuery } from '../components/dashboard/queries';
import { NewAccount } from '../components/dashboard/NewAccount';
import { RecentRuns } from '../components/dashboard/RecentRuns';
import { ReviewBacklog } from '../components/dashboard/ReviewBacklog';
import { StatCards } from '../components/dashboard/StatCards';
import { WebhookFailures } from '../components/dashboard/WebhookFailures';
import { QueryState } from '../components/states';
import { isNewAccount } from '../lib/dashboard';

export default function DashboardPage() {
  const stats = useQuery(statsQuery);
  return (
    <Stack>
      <Title order={2}>Dashboard</Title>
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
