import { describe, expect, it } from '@jest/globals';
import { estimateText } from '../../lib/format';
import { accuracyText, fivePointsText, labelsText } from './quality';

describe('estimateText and accuracyText', () => {
  it('shows the estimate with its interval in whole percent', () => {
    const share = { estimate: 0.9412, low: 0.9061, high: 0.9638, labels: 340 };
    expect(estimateText(share)).toBe('94% (91–96%)');
    expect(accuracyText(share)).toBe('Automatic decisions right: 94% (91–96%)');
  });

  it('shows the estimate alone when the interval is missing', () => {
    expect(estimateText({ estimate: 1, low: null, high: null, labels: 1 })).toBe('100%');
  });

  it('says there are no labels rather than 0% without an estimate', () => {
    const share = { estimate: null, low: null, high: null, labels: 0 };
    expect(estimateText(share)).toBeNull();
    expect(accuracyText(share)).toBe('No audit labels yet');
  });
});

describe('labelsText and fivePointsText', () => {
  it('counts the labels', () => {
    expect(labelsText(1)).toBe('From 1 audit label');
    expect(labelsText(1200)).toBe('From 1,200 audit labels');
  });

  it('says how many more labels ±5 points needs, and nothing once there', () => {
    expect(fivePointsText(385)).toBe('About 385 more audit labels for ±5 points');
    expect(fivePointsText(1)).toBe('About 1 more audit label for ±5 points');
    expect(fivePointsText(0)).toBeNull();
  });
});
