import { Text } from '@mantine/core';
import { costText, unknownCostNote, type CostSum } from '../lib/cost';

/** A cost as text (`lib/cost`), with what its unknown part is on a line of its own under it. */
export function CostText({ cost }: { cost: CostSum }) {
  const note = unknownCostNote(cost);
  return (
    <>
      {costText(cost)}
      {note && (
        <Text span size="xs" c="dimmed" display="block">
          {note}
        </Text>
      )}
    </>
  );
}
