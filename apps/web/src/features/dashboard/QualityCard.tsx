import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Schemas } from '../../api/client';
import { Panel } from '../../ui/Panel';
import { accuracyText, fivePointsText, labelsText } from './quality';

/**
 * How often reviewers agree with each audited pack's automatic decisions (live traffic, 30 days,
 * 95% interval); the stats leave `quality` out or empty when no live pack has the audit on.
 */
export function QualityCard({ quality }: { quality: Schemas['PackQualityDto'][] | undefined }) {
  return (
    <Panel title="Quality" align="flex-start">
      {!quality?.length ? (
        <Text size="sm" c="dimmed">
          Turn on audit sampling on a{' '}
          <Anchor component={Link} to="/packs" size="sm" underline="always">
            pack
          </Anchor>{' '}
          to measure how often automatic decisions are right.
        </Text>
      ) : (
        quality.map((pack) => {
          const more = fivePointsText(pack.auditLabelsForFivePoints);
          return (
            <Stack key={pack.packId} gap={2} data-testid="pack-quality">
              <Anchor component={Link} to={`/packs/${pack.packId}`} fw={600} size="sm">
                {pack.packName}
              </Anchor>
              <Text size="sm">{accuracyText(pack.autoDecisionAccuracy)}</Text>
              <Text size="xs" c="dimmed">
                {labelsText(pack.autoDecisionAccuracy.labels)} over the last 30 days
                {more ? `. ${more}.` : '.'}
              </Text>
            </Stack>
          );
        })
      )}
    </Panel>
  );
}
