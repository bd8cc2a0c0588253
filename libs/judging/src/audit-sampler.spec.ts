import { describe, expect, it, jest } from '@jest/globals';
import type { AppConfig } from '@app/config';
import { seededRandom } from '@app/domain';
import type { AuditBaselineCache } from '@app/persistence';
import { AuditSampler, type AuditCandidate } from './audit-sampler.js';

const PACK = '11111111-1111-4111-8111-111111111111';

function sampler(mean: number | null, auditSeed?: number) {
  const meanUncertainty = jest.fn((_userId: string, _packId: string) => Promise.resolve(mean));
  const baselines = { meanUncertainty } as unknown as AuditBaselineCache;
  return { sampler: new AuditSampler(baselines, { auditSeed } as AppConfig), meanUncertainty };
}

const candidate = (fields: Partial<AuditCandidate> = {}): AuditCandidate => ({
  userId: 'u',
  packId: PACK,
  source: 'api',
  selectedProbabilities: { department: 0.7 },
  failed: false,
  ...fields,
});

describe('AuditSampler', () => {
  it('draws nothing and reads nothing with the audit off, without settings, or off live traffic', async () => {
    const { sampler: audits, meanUncertainty } = sampler(0.2);
    expect(await audits.draw(candidate(), { rate: 0, strategy: 'uncertainty' })).toBeNull();
    expect(await audits.draw(candidate(), null)).toBeNull();
    for (const source of ['playground', 'simulation'] as const)
      expect(await audits.draw(candidate({ source }), { rate: 1, strategy: 'uniform' })).toBeNull();
    expect(meanUncertainty).not.toHaveBeenCalled();
  });

  it('reads no baseline for the uniform strategy', async () => {
    const { sampler: audits, meanUncertainty } = sampler(0.2);
    expect(await audits.draw(candidate(), { rate: 1, strategy: 'uniform' })).toEqual({
      probability: 1,
      selected: true,
      uncertainty: expect.closeTo(Math.sqrt(0.3), 12),
    });
    expect(meanUncertainty).not.toHaveBeenCalled();
  });

  it("draws the uncertainty strategy with the pack's ū", async () => {
    const { sampler: audits, meanUncertainty } = sampler(0.5);
    // u = √(1 − 0.7) = 0.547723; π = 0.1·(0.2 + 0.8·0.547723/0.5) = 0.1·1.076356 = 0.1076356
    const draw = await audits.draw(candidate(), { rate: 0.1, strategy: 'uncertainty' });
    expect(draw?.probability).toBeCloseTo(0.1 * (0.2 + (0.8 * Math.sqrt(0.3)) / 0.5), 12);
    expect(draw?.uncertainty).toBeCloseTo(Math.sqrt(0.3), 12);
    expect(meanUncertainty).toHaveBeenCalledWith('u', PACK);
    // A failed judgment: u = 1, π = 0.1·(0.2 + 0.8/0.5) = 0.18
    const failed = await audits.draw(candidate({ selectedProbabilities: {}, failed: true }), {
      rate: 0.1,
      strategy: 'uncertainty',
    });
    expect(failed?.probability).toBeCloseTo(0.18, 12);
  });

  it("takes the version's calibration map into u where it has one", async () => {
    const { sampler: audits } = sampler(0.5);
    // The map says the judge's 0.7 is right 0.36 of the time: u = √(1 − 0.36) = 0.8,
    // π = 0.1·(0.2 + 0.8·0.8/0.5) = 0.1·1.48 = 0.148.
    const calibrate = (questionId: string) => (questionId === 'department' ? 0.36 : undefined);
    const draw = await audits.draw(candidate(), { rate: 0.1, strategy: 'uncertainty' }, calibrate);
    expect(draw?.uncertainty).toBeCloseTo(0.8, 12);
    expect(draw?.probability).toBeCloseTo(0.148, 12);
  });

  it('takes its random numbers from AUDIT_SEED when set', async () => {
    const { sampler: audits } = sampler(null, 99);
    const next = seededRandom(99);
    const settings = { rate: 0.5, strategy: 'uniform' } as const;
    for (let i = 0; i < 10; i++)
      expect((await audits.draw(candidate(), settings))?.selected).toBe(next() < 0.5);
  });
});
