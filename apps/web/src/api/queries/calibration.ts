import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../client';

/** Query keys of calibration reports; labels and pack changes make them stale. */
export const calibrationKeys = {
  all: ['calibration'] as const,
  report: (packId: string, target: number) => ['calibration', packId, target] as const,
  preview: (packId: string, questionId: string, threshold: number) =>
    ['calibration', 'preview', packId, questionId, threshold] as const,
};

export function useCalibration(packId: string | undefined, target: number) {
  return useQuery({
    queryKey: calibrationKeys.report(packId ?? '', target),
    queryFn: () =>
      unwrap(
        api.GET('/api/packs/{packId}/calibration', {
          params: { path: { packId: packId! }, query: { targetAgreement: target } },
        }),
      ),
    enabled: Boolean(packId),
  });
}

/**
 * What a threshold would have sent to review over the last 30 days of live traffic; idle without a
 * question id or a threshold. Which ids and thresholds it takes is the API's to say (a 400).
 */
export function useThresholdPreview(packId: string, questionId: string, threshold: number | undefined) {
  const valid = questionId !== '' && threshold !== undefined;
  return useQuery({
    queryKey: calibrationKeys.preview(packId, questionId, threshold ?? -1),
    queryFn: () =>
      unwrap(
        api.GET('/api/packs/{packId}/threshold-preview', {
          params: { path: { packId }, query: { questionId, threshold: threshold! } },
        }),
      ),
    enabled: valid,
    staleTime: 60_000,
  });
}
