import { Badge } from '@mantine/core';
import { isExperiment, sourceLabel, type EvaluationSource } from '../lib/sources';

/** Where an evaluation came from: live sources outlined, experiments (playground, simulation) in grey. */
export function SourceBadge({ source }: { source: EvaluationSource }) {
  return (
    <Badge
      variant={isExperiment(source) ? 'light' : 'outline'}
      color={isExperiment(source) ? 'gray' : 'blue'}
      style={{ minWidth: 'max-content' }}
    >
      {sourceLabel(source)}
    </Badge>
  );
}
