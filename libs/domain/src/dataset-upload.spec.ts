import { describe, expect, it } from '@jest/globals';
import { uploadFits } from './dataset-upload.js';

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
