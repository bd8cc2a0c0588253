import { describe, expect, it } from '@jest/globals';
import { recentRunDetail, recentRunTitle } from './recent-runs';

const run = {
  id: 'ea295fde-0000-4000-8000-000000000000',
  status: 'completed',
  packId: 'p',
  createdAt: '2026-11-01T10:00:00.000Z',
};

describe('recent runs', () => {
  it('names a run by its name, else by its pack and dataset, never by a hash when they are known', () => {
    const described = {
      ...run,
      name: null,
      packName: 'Triage',
      datasetName: 'November',
      packVersionNumber: 3,
      packVersionLive: true,
    };
    expect(recentRunTitle(described)).toBe('Triage on November');
    expect(recentRunDetail(described)).toBe('Version 3 (live)');
    const named = { ...described, name: 'Stricter refunds', packVersionNumber: null, packVersionLive: false };
    expect(recentRunTitle(named)).toBe('Stricter refunds');
    expect(recentRunDetail(named)).toBe('Triage (Draft) on November');
    expect(recentRunTitle(run)).toBe('Simulation ea295fde');
    expect(recentRunDetail(run)).toBeNull();
  });
});
