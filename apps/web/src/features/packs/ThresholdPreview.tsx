import { Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ApiError } from '../../api/client';
import { useThresholdPreview } from '../../api/queries/calibration';
import { formatPercent } from '../../lib/format';
import { thresholdPreviewText } from './packs';

/**
 * "Would have sent N% of the last 30 days to review" at the threshold being typed, from the selected
 * probabilities the API stored for the pack's live evaluations (asked once the typing pauses).
 */
export function ThresholdPreview({
  packId,
  questionId,
  threshold,
}: {
  packId: string;
  questionId: string;
  threshold: number | undefined;
}) {
  const [debounced] = useDebouncedValue(threshold, 300);
  const preview = useThresholdPreview(packId, questionId, debounced);
  if (threshold === undefined) return null;
  // An id or threshold the API refuses has nothing to preview; the field says why on save.
  if (preview.error instanceof ApiError && preview.error.status === 400) return null;
  let text: string;
  if (preview.isError) text = 'The review preview could not be loaded.';
  else if (!preview.data) text = 'Checking the last 30 days…';
  else text = thresholdPreviewText(preview.data, formatPercent);
  return (
    <Text size="sm" c="dimmed" aria-live="polite" data-testid="threshold-preview">
      {text}
    </Text>
  );
}
