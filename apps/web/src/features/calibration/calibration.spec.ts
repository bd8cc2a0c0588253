import { describe, expect, it } from '@jest/globals';
import {
  calibrationErrorText,
  coverageText,
  decimal,
  guaranteedMissingText,
  guaranteedTitle,
  kappaStrength,
  labelsExportUrl,
  labelsNeededText,
  observedText,
  reliabilityPoints,
  thresholdOf,
  totalLabels,
  withThreshold,
} from './calibration';

const DOCUMENT = {
  questions: [
    {
      type: 'choice' as const,
      id: 'department',
      name: 'Department',
      instructions: '',
      criteria: { options: [{ value: 'a' }, { value: 'b' }], custom: 1 },
      review: { minSelectedProbability: 0.6, note: 'kept' } as { minSelectedProbability: number },
    },
    {
      type: 'boolean' as const,
      id: 'abusive',
      name: 'Abusive',
      instructions: '',
      criteria: {},
      review: { minSelectedProbability: 0.5 },
    },
  ],
  extra: true,
};

describe('reliability', () => {
  it('turns bins into percent rows with the calibrated line', () => {
    expect(
      reliabilityPoints([
        { from: 0, to: 0.1, count: 0, agreement: null, calibrated: null },
        { from: 0.9, to: 1, count: 3, agreement: 2 / 3, calibrated: 0.6512 },
      ]),
    ).toEqual([
      { bin: '0.0–0.1', expected: 5, observed: null, calibrated: null, count: 0 },
      { bin: '0.9–1.0', expected: 95, observed: 66.7, calibrated: 65.1, count: 3 },
    ]);
  });

  it('says an empty bin has no data rather than 0%', () => {
    expect(observedText(null)).toBe('No data');
    expect(observedText(0)).toBe('0%');
    expect(observedText(66.7)).toBe('66.7%');
  });
});

describe('figures', () => {
  it('names kappa strengths', () => {
    expect([null, -0.1, 0, 0.1, 0.3, 0.5, 0.7, 0.9].map(kappaStrength)).toEqual([
      'not available',
      'worse than chance',
      'no better than chance',
      'slight',
      'fair',
      'moderate',
      'substantial',
      'almost perfect',
    ]);
  });

  it('formats decimals and sums labels', () => {
    expect(decimal(0.72345)).toBe('0.72');
    expect(decimal(0.5, 3)).toBe('0.5');
    expect(decimal(null)).toBe('—');
    const question = {
      type: 'boolean' as const,
      kappa: null,
      agreementRate: null,
      confusion: { categories: [], matrix: [] },
      reliability: [],
      suggestedMinSelectedProbability: null,
      reviewShareAtSuggested: null,
      labelsNeededForSuggestion: 0,
      ece: { raw: null, calibrated: null, labels: 0 },
      guaranteedMinSelectedProbability: null,
      coverageAtGuaranteed: null,
      auditLabelsNeeded: null,
      auditLabels: 0,
      calibrationMap: null,
    };
    expect(
      totalLabels({
        packId: 'p',
        versionId: 'v',
        targetAgreement: 0.95,
        delta: 0.1,
        questions: [
          { ...question, questionId: 'a', labeled: 2 },
          { ...question, questionId: 'b', labeled: 3 },
        ],
      }),
    ).toBe(5);
  });
});

describe('thresholds in the document', () => {
  it('reads a threshold', () => {
    expect(thresholdOf(DOCUMENT, 'abusive')).toBe(0.5);
    expect(thresholdOf(DOCUMENT, 'missing')).toBeUndefined();
    expect(thresholdOf(null, 'abusive')).toBeUndefined();
  });

  it('writes one question and keeps everything else', () => {
    const next = withThreshold(DOCUMENT, 'department', 0.7321);
    expect(next.questions[0].review).toEqual({ minSelectedProbability: 0.7321, note: 'kept' });
    expect(next.questions[0].criteria).toEqual(DOCUMENT.questions[0].criteria);
    expect(next.questions[1]).toBe(DOCUMENT.questions[1]);
    expect((next as typeof DOCUMENT).extra).toBe(true);
    expect(DOCUMENT.questions[0].review.minSelectedProbability).toBe(0.6);
  });

  it('refuses a question the draft does not have', () => {
    expect(() => withThreshold(DOCUMENT, 'gone', 0.5)).toThrow('The draft has no question "gone"');
  });
});

describe('labelsNeededText', () => {
  it('says how many more labels a suggestion needs', () => {
    expect(labelsNeededText(28, 2)).toBe(
      'A threshold is suggested from 30 labels on this question: label 28 more answers (2 so far).',
    );
    expect(labelsNeededText(1, 29)).toContain('label 1 more answer (29 so far)');
  });
});

describe('labelsExportUrl', () => {
  it("names the chosen pack's labels, or all of them", () => {
    expect(labelsExportUrl('p-1')).toBe('/api/labels/export?packId=p-1');
    expect(labelsExportUrl('a&b')).toBe('/api/labels/export?packId=a%26b');
    expect(labelsExportUrl()).toBe('/api/labels/export');
  });
});

describe('the guaranteed threshold in words', () => {
  it('names the risk', () => {
    expect(guaranteedTitle(0.1)).toBe('Guaranteed threshold (δ = 0.1)');
    expect(guaranteedTitle(0.05)).toBe('Guaranteed threshold (δ = 0.05)');
  });

  it('gives the share decided automatically', () => {
    expect(coverageText(0.624)).toBe('decides 62% automatically');
    expect(coverageText(null)).toBeNull();
  });

  it('says how many more audit labels one needs, or that none is supported', () => {
    expect(guaranteedMissingText(45, 0.95)).toBe('None yet: about 45 more audit labels.');
    expect(guaranteedMissingText(1, 0.95)).toBe('None yet: about 1 more audit label.');
    expect(guaranteedMissingText(null, 0.9)).toBe(
      'None: the audit labels do not support one at 90% agreement.',
    );
  });
});

describe('calibrationErrorText', () => {
  it('sets the raw error against the calibrated one', () => {
    expect(calibrationErrorText({ raw: 0.112, calibrated: 0.03, labels: 200 })).toBe(
      'Calibration error: raw 11.2%, calibrated 3%',
    );
  });

  it('shows a dash for one unknown side and nothing when both are', () => {
    expect(calibrationErrorText({ raw: 0.1, calibrated: null, labels: 3 })).toBe(
      'Calibration error: raw 10%, calibrated —',
    );
    expect(calibrationErrorText({ raw: null, calibrated: null, labels: 0 })).toBeNull();
  });
});
