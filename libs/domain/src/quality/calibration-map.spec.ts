import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  applyCalibration,
  fitCalibrationMap,
  fitPlatt,
  isotonicPoints,
  ISOTONIC_MIN_LABELS,
  plattGrid,
  plattProbability,
  type CalibrationMap,
} from './calibration-map.js';
import type { AuditedAnswer } from './weighted.js';

const answer = (selectedProbability: number, agreed: boolean, inclusionProbability = 1): AuditedAnswer => ({
  selectedProbability,
  agreed,
  inclusionProbability,
});
const repeat = (count: number, make: (i: number) => AuditedAnswer) =>
  Array.from({ length: count }, (_, i) => make(i));

describe('Platt scaling', () => {
  // 4 answers at p = 0.8 (logit ln 4), 3 agreeing; 4 at p = 0.2 (logit −ln 4), 1 agreeing.
  const symmetric = [...repeat(4, (i) => answer(0.8, i < 3)), ...repeat(4, (i) => answer(0.2, i < 1))];

  it('fits σ(a + b·logit p) by maximum likelihood: on symmetric data a = 0, b = ln 3 / ln 4', () => {
    // Two groups, two parameters: the MLE reproduces each group's rate, σ(±b·ln 4) = 0.75 / 0.25,
    // so b·ln 4 = logit 0.75 = ln 3 → b = 1.098612 / 1.386294 = 0.792481, and a = 0 by symmetry.
    const fit = fitPlatt(symmetric, 0);
    expect(fit.intercept).toBeCloseTo(0, 9);
    expect(fit.slope).toBeCloseTo(Math.log(3) / Math.log(4), 9);
    expect(plattProbability(fit, 0.8)).toBeCloseTo(0.75, 9);
    expect(plattProbability(fit, 0.5)).toBeCloseTo(0.5, 9);
  });

  it('pulls (a, b) towards (0, 1) with the ridge: the score equation 2·ln 4·(4σ(b·ln 4) − 3) + (b − 1) = 0', () => {
    // With λ = 1 and weights 1, ∂/∂b = Σ(σ(b·x) − y)·x + (b − 1); both groups give ln 4·(4σ(b·ln 4) − 3).
    const fit = fitPlatt(symmetric, 1);
    const L = Math.log(4);
    const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
    expect(fit.intercept).toBeCloseTo(0, 9);
    expect(2 * L * (4 * sigmoid(fit.slope * L) - 3) + (fit.slope - 1)).toBeCloseTo(0, 9);
    expect(fit.slope).toBeGreaterThan(Math.log(3) / Math.log(4));
    expect(fit.slope).toBeLessThan(1);
  });

  it('is drawn on points close enough that interpolating between them follows the curve', () => {
    // The worst case: a steep slope, whose curve turns both near p = 0.5 and near p = 1.
    const fit = { intercept: 2, slope: 4 };
    const map: CalibrationMap = {
      method: 'platt',
      labels: 1,
      points: plattGrid().map((p) => ({ selectedProbability: p, calibrated: plattProbability(fit, p) })),
    };
    for (let p = 0; p <= 1; p += 0.0005)
      expect(Math.abs(applyCalibration(map, p) - plattProbability(fit, p))).toBeLessThan(0.003);
    // Both grids: 0, 1/40, …, 1 and 41 points uniform in logit, sharing 0.5 → 81 points.
    expect(plattGrid()).toHaveLength(81);
  });

  it('stays finite when every label agrees (separable data)', () => {
    const fit = fitPlatt(repeat(20, (i) => answer(0.6 + i * 0.02, true)));
    expect(Number.isFinite(fit.intercept) && Number.isFinite(fit.slope)).toBe(true);
    expect(plattProbability(fit, 0.99)).toBeLessThan(1);
  });

  it('never decreases: labels that disagree more as the judge is surer give a flat map', () => {
    const items = [...repeat(5, () => answer(0.95, false)), ...repeat(5, () => answer(0.6, true))];
    const fit = fitPlatt(items);
    expect(fit.slope).toBe(0);
    // Intercept alone: Σ(σ(a) − y) + a = 10σ(a) − 5 + a = 0 → a = 0, a flat 0.5.
    expect(plattProbability(fit, 0.2)).toBeCloseTo(0.5, 9);
  });
});

describe('isotonic regression (pool-adjacent-violators)', () => {
  it('pools adjacent violators into blocks and returns their ends', () => {
    // p:  0.1 0.2 0.3 0.4 0.5 0.6 0.7
    // y:   1   0   0   1   1   0   1
    // 0.2 violates 0.1 → {0.1, 0.2} = 1/2; 0.3 violates → {0.1..0.3} = 1/3; 0.4 and 0.5 are 1;
    // 0.6 (0) violates 0.5 → {0.5, 0.6} = 1/2, which violates 0.4 (1) → {0.4..0.6} = 2/3; 0.7 is 1.
    const items = [1, 0, 0, 1, 1, 0, 1].map((y, i) => answer((i + 1) / 10, y === 1));
    expect(isotonicPoints(items)).toEqual([
      { selectedProbability: 0.1, calibrated: 1 / 3 },
      { selectedProbability: 0.3, calibrated: 1 / 3 },
      { selectedProbability: 0.4, calibrated: 2 / 3 },
      { selectedProbability: 0.6, calibrated: 2 / 3 },
      { selectedProbability: 0.7, calibrated: 1 },
    ]);
  });

  it('weights by 1/π and pools ties first', () => {
    // 0.2 agrees (w 1), 0.3 does not (w 3): a violation, pooled to 1/(1 + 3) = 0.25.
    // Two answers at 0.9, one agreeing: one block of 1/2 at a single point.
    const items = [answer(0.2, true, 1), answer(0.3, false, 1 / 3), answer(0.9, true), answer(0.9, false)];
    const points = isotonicPoints(items);
    expect(points[0]).toEqual({ selectedProbability: 0.2, calibrated: 0.25 });
    expect(points[1]).toEqual({ selectedProbability: 0.3, calibrated: 0.25 });
    expect(points[2].selectedProbability).toBe(0.9);
    expect(points[2].calibrated).toBeCloseTo(0.5, 12);
    expect(points).toHaveLength(3);
  });
});

describe('calibration map', () => {
  it(`is Platt's below ${ISOTONIC_MIN_LABELS} labels, isotonic from there, null without labels`, () => {
    const make = (count: number) => repeat(count, (i) => answer(0.5 + (i % 50) / 100, i % 4 !== 0));
    const platt = fitCalibrationMap(make(ISOTONIC_MIN_LABELS - 1))!;
    expect(platt.method).toBe('platt');
    expect(platt.points.map((point) => point.selectedProbability)).toEqual(plattGrid());
    expect(platt.points[0].selectedProbability).toBe(0);
    expect(platt.points.at(-1)!.selectedProbability).toBe(1);
    expect(fitCalibrationMap(make(ISOTONIC_MIN_LABELS))!.method).toBe('isotonic');
    expect(fitCalibrationMap([])).toBeNull();
  });

  it('interpolates linearly between points and stays flat beyond the ends', () => {
    const map: CalibrationMap = {
      method: 'isotonic',
      labels: 7,
      points: [
        { selectedProbability: 0.1, calibrated: 1 / 3 },
        { selectedProbability: 0.3, calibrated: 1 / 3 },
        { selectedProbability: 0.4, calibrated: 2 / 3 },
        { selectedProbability: 0.7, calibrated: 1 },
      ],
    };
    expect(applyCalibration(map, 0.05)).toBeCloseTo(1 / 3, 12);
    expect(applyCalibration(map, 0.2)).toBeCloseTo(1 / 3, 12);
    // Halfway between (0.3, 1/3) and (0.4, 2/3): 1/3 + 0.5·(1/3) = 0.5.
    expect(applyCalibration(map, 0.35)).toBeCloseTo(0.5, 12);
    // A third of the way from (0.4, 2/3) to (0.7, 1): 2/3 + (1/3)·(1/3) = 7/9.
    expect(applyCalibration(map, 0.5)).toBeCloseTo(7 / 9, 12);
    expect(applyCalibration(map, 1)).toBe(1);
  });
});

const labeled = fc.array(
  fc.record({
    selectedProbability: fc.double({ min: 0, max: 1, noNaN: true }),
    agreed: fc.boolean(),
    inclusionProbability: fc.double({ min: 0.01, max: 1, noNaN: true }),
  }),
  { minLength: 1, maxLength: 80 },
);

describe('calibration map properties', () => {
  it('isotonic output is non-decreasing, in [0, 1], at increasing probabilities', () => {
    fc.assert(
      fc.property(labeled, (items) => {
        const points = isotonicPoints(items);
        for (let i = 1; i < points.length; i++) {
          expect(points[i].selectedProbability).toBeGreaterThan(points[i - 1].selectedProbability);
          expect(points[i].calibrated).toBeGreaterThanOrEqual(points[i - 1].calibrated);
        }
        for (const point of points) expect(point.calibrated >= 0 && point.calibrated <= 1).toBe(true);
      }),
    );
  });

  it('either method maps increasing probabilities to non-decreasing ones in [0, 1]', () => {
    fc.assert(
      fc.property(labeled, fc.constantFrom('platt' as const, 'isotonic' as const), (items, method) => {
        const map = fitCalibrationMap(items, method)!;
        let previous = -Infinity;
        for (let p = 0; p <= 1.0001; p += 0.02) {
          const calibrated = applyCalibration(map, p);
          expect(calibrated).toBeGreaterThanOrEqual(previous - 1e-12);
          expect(calibrated >= 0 && calibrated <= 1).toBe(true);
          previous = calibrated;
        }
      }),
      // Each run fits a map; 50 keep the file within Jest's 5 s on a loaded machine.
      { numRuns: 50 },
    );
  });

  it('with π = 1 or any one π for all, fits the same map (weights only matter relative to each other)', () => {
    fc.assert(
      fc.property(labeled, fc.double({ min: 0.01, max: 1, noNaN: true }), (items, pi) => {
        const ones = items.map((item) => ({ ...item, inclusionProbability: 1 }));
        const same = items.map((item) => ({ ...item, inclusionProbability: pi }));
        const a = fitCalibrationMap(ones, 'platt')!;
        const b = fitCalibrationMap(same, 'platt')!;
        // Newton stops within about 1e-8 of the optimum; with every p equal the slope is set by the
        // ridge alone, and that much shows at the far end of the grid.
        a.points.forEach((point, i) => expect(b.points[i].calibrated).toBeCloseTo(point.calibrated, 6));
        // The same isotonic map as a function: where two neighbouring blocks have equal means,
        // rounding in the weighted sums can merge them in one fit and not the other (seen with
        // probabilities of 0 and 1e-323), which changes the points but not a value read from them.
        const c = isotonicPoints(ones);
        const d = isotonicPoints(same);
        const read = (points: typeof c, p: number) =>
          applyCalibration({ method: 'isotonic', labels: items.length, points }, p);
        for (const { selectedProbability } of [...c, ...d])
          expect(read(d, selectedProbability)).toBeCloseTo(read(c, selectedProbability), 9);
      }),
    );
  });
});
