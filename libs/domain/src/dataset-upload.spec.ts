import { describe, expect, it } from '@jest/globals';
import { planUpload, uploadFits } from './dataset-upload.js';

describe('uploadFits', () => {
  it('takes an upload that reaches the limit exactly', () => {
    expect(uploadFits(0, 250, 250)).toBe(true);
    expect(uploadFits(200, 50, 250)).toBe(true);
  });

  it('refuses the whole upload when one ticket would pass the limit', () => {
    expect(uploadFits(200, 51, 250)).toBe(false);
    expect(uploadFits(250, 1, 250)).toBe(false);
  });

  it('takes an empty upload while the dataset is within its limit', () => {
    expect(uploadFits(250, 0, 250)).toBe(true);
  });
});

describe('planUpload', () => {
  const t = (externalId?: string, subject = 's') =>
    externalId === undefined ? { subject } : { externalId, subject };

  it('skips tickets whose externalId the dataset holds, and repeats within the upload (the first stays)', () => {
    const plan = planUpload(
      [t('A', '1'), t('B', '2'), t('A', '3'), t('C', '4'), t('B', '5')],
      new Set(['C']),
      1,
      250,
    );
    expect(plan.add).toEqual([t('A', '1'), t('B', '2')]);
    expect(plan.skipped).toBe(3);
    expect(plan.fits).toBe(true);
  });

  it('always adds tickets without an externalId', () => {
    const plan = planUpload([t(), t(), t('A')], new Set(['A']), 0, 250);
    expect(plan.add).toEqual([t(), t()]);
    expect(plan.skipped).toBe(1);
  });

  it('counts only the tickets it adds against the limit', () => {
    const upload = [t('A'), t('B'), t('C')];
    expect(planUpload(upload, new Set(['A', 'B']), 249, 250)).toMatchObject({ skipped: 2, fits: true });
    expect(planUpload(upload, new Set(['A']), 249, 250)).toMatchObject({ skipped: 1, fits: false });
    expect(planUpload(upload, new Set(['A', 'B', 'C']), 250, 250)).toEqual({
      add: [],
      skipped: 3,
      fits: true,
    });
  });
});
