import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../client';

/** Query keys of calibration reports; labels and pack changes make them stale. */
export const calibrationKeys = {
  all: ['calibration'] as const,
  report: (packId: string, target: number) => ['calibration', packId, target] as const,
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
