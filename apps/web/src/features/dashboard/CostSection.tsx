import { Anchor, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { costText, unknownCostNote, type CostSum } from '../../lib/cost';
import { formatCount } from '../../lib/format';
import { DataTable } from '../../ui/DataTable';
import { Figure } from '../../ui/Figure';
import { costDays, costTotal, packTotals } from './cost';

function PackName({ pack }: { pack: { packId: string; packName: string; packDeleted: boolean } }) {
  if (pack.packDeleted) return <>{pack.packName} (deleted)</>;
  return (
    <Anchor component={Link} to={`/packs/${pack.packId}`} size="sm">
      {pack.packName}
    </Anchor>
  );
}

function CostFigure({ label, cost }: { label: string; cost: CostSum }) {
  return <Figure label={label} value={costText(cost)} note={unknownCostNote(cost)} />;
}

/**
 * What judging cost: today and the 30 days, per day with its packs, and per pack. A model without a
 * price (MODEL_PRICES) has an unknown cost, shown as such, never as $0.
 */
export function CostSection({ cost }: { cost: Schemas['CostDto'] }) {
  const headingId = useId();
  const days = costDays(cost);
  const packs = packTotals(cost);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} id={headingId}>
          Cost
        </Title>
        <Group gap="xl" align="flex-start">
          <CostFigure label="Today" cost={cost.today} />
          <CostFigure label="Last 30 days" cost={costTotal(cost)} />
        </Group>
        <Text size="xs" c="dimmed">
          Each evaluation costs its tokens at its model’s price in MODEL_PRICES; none ship, and a model
          without one has an unknown cost. The built-in local-lexical-1 costs nothing.
        </Text>
        {days.length === 0 ? (
          <Text size="sm" c="dimmed">
            No evaluations in the last {cost.days.length} days.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <DataTable
              rows={days}
              rowKey={(row) => row.date}
              caption="Cost per day (UTC), newest first, with its packs"
              label="Cost per day"
              columns={[
                { header: 'Day', rowHeader: true, cell: (row) => row.day },
                { header: 'Cost', cell: (row) => costText(row) },
                {
                  header: 'By pack',
                  cell: (row) => (
                    <Stack gap={2}>
                      {row.packs.map((pack) => (
                        <Text key={pack.packId} size="sm">
                          <PackName pack={pack} />: {costText(pack)}
                        </Text>
                      ))}
                    </Stack>
                  ),
                },
              ]}
            />
            <DataTable
              rows={packs}
              rowKey={(row) => row.packId}
              caption="Cost per pack over the last 30 days"
              label="Cost per pack"
              columns={[
                { header: 'Pack', rowHeader: true, cell: (row) => <PackName pack={row} /> },
                { header: 'Evaluations', cell: (row) => formatCount(row.evaluations) },
                { header: 'Cost', cell: (row) => costText(row) },
                {
                  header: 'Unknown cost',
                  cell: (row) => (row.unknownCostEvaluations ? formatCount(row.unknownCostEvaluations) : '—'),
                },
              ]}
            />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
