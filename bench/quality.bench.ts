// `npm run bench:quality`: issue 23's proof. Part 1 runs a synthetic world with a known truth through
// the product's own estimators (libs/domain/src/quality) and checks their coverage, widths, calibration
// and guarantee against goals. Part 2 runs one round of that world through the API, a worker, SQL and
// the fake gateway (quality.round.ts), and times the quality route at 1,000,000 evaluations.
// Figures go to docs/performance.md.
import {
  applyCalibration,
  auditProbability,
  auditUncertainty,
  autoDecisionAccuracy,
  calibrationErrors,
  clopperPearsonLower,
  ECE_BINS,
  firstTestedStratumSize,
  fitCalibrationMap,
  guaranteedThreshold,
  predictionPoweredShare,
  REFIT_AFTER_NEW_LABELS,
  type Answer,
  type AuditedAnswer,
  type AuditedCategory,
  type AuditedEvaluation,
  type Calibrate,
  type CalibrationMap,
} from '@app/domain';
import { log, runMain } from './harness/log.js';
import { num, nums, readOptions, settingsOf, words } from './harness/options.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun } from './harness/run.js';
import { qualityRound, qualityRouteAtScale, type RoundFigures, type RouteFigures } from './quality.round.js';

const options = readOptions({
  reps: num(1000),
  seed: num(23),
  evaluations: num(20_000),
  auditRate: num(0.05),
  confidence: num(0.95),
  eceLabels: nums(50, 200, 1000),
  thresholdLabels: num(500),
  pilotLabels: num(200),
  targetAgreement: num(0.9),
  delta: num(0.1),
  /** Which parts run: `statistics` (part 1), `round` and `route` (part 2). */
  parts: words('statistics', 'round', 'route'),
  roundTickets: num(2000),
  roundAuditRate: num(0.25),
  routeEvaluations: num(1_000_000),
  routeLabels: num(5000),
  routeRequests: num(100),
});
const settings = settingsOf(options);

// ---------------------------------------------------------------------------------------------
// Part 1: the statistics of a synthetic world.
// ---------------------------------------------------------------------------------------------

/** Each question's answer values and how often the judge gives each. */
const QUESTIONS = [
  { values: ['billing', 'technical', 'account'], shares: [0.55, 0.3, 0.15] },
  { values: ['true', 'false'], shares: [0.7, 0.3] },
  { values: ['1', '2', '3', '4', '5'], shares: [0.1, 0.15, 0.25, 0.3, 0.2] },
];
/**
 * `uncertainty` is the product's draw once the pack has calibration maps (fitted here on
 * `pilotLabels` uniformly labeled answers per question, as a first audit would give);
 * `uncertainty, no map` is the same draw before any map, on the judge's own probabilities.
 */
const DESIGNS = ['uniform', 'uncertainty', 'uncertainty, no map'] as const;
type Design = (typeof DESIGNS)[number];

/** The judge is overconfident: when it says p, a reviewer agrees with chance 0.5 + 0.7·(p − 0.5). */
const trueAgreement = (p: number) => 0.5 + 0.7 * (p - 0.5);

/**
 * A second judge for the threshold, overconfident everywhere but right when it is certain:
 * 0.5 + 2·(p − 0.5)², so 0.905 at p = 0.95 and 1 at p = 1. Under the first judge no answer is
 * agreed with more than 85% of the time, so a target of 0.9 has no threshold at all to find.
 */
const sureWhenCertain = (p: number) => 0.5 + 2 * (p - 0.5) ** 2;

/** mulberry32: a small seeded generator, so every run of the benchmark draws the same worlds. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The judge's selected probability: 0.5 + 0.5·x with x = U^(1/3) (a Beta(3, 1), density 3x²), so
 * mostly high: mean 0.875, a quarter of the answers above 0.95.
 */
const statedProbability = (random: () => number) => 0.5 + 0.5 * Math.cbrt(random());

function pick(shares: readonly number[], random: () => number): number {
  let u = random();
  for (let i = 0; i < shares.length - 1; i++) {
    if (u < shares[i]) return i;
    u -= shares[i];
  }
  return shares.length - 1;
}

/** One drawn population: every evaluation's stated probability, judge answer and true label per question. */
interface World {
  size: number;
  /** Indexed [question][evaluation]. */
  probability: Float64Array[];
  judge: Uint8Array[];
  label: Uint8Array[];
}

function drawWorld(size: number, random: () => number, agreement = trueAgreement): World {
  const world: World = { size, probability: [], judge: [], label: [] };
  for (const question of QUESTIONS) {
    const probability = new Float64Array(size);
    const judge = new Uint8Array(size);
    const label = new Uint8Array(size);
    for (let i = 0; i < size; i++) {
      probability[i] = statedProbability(random);
      judge[i] = pick(question.shares, random);
      // A disagreeing reviewer picks one of the other values, each as likely.
      const others = question.values.length - 1;
      label[i] =
        random() < agreement(probability[i])
          ? judge[i]
          : (judge[i] + 1 + Math.floor(random() * others)) % (others + 1);
    }
    world.probability.push(probability);
    world.judge.push(judge);
    world.label.push(label);
  }
  return world;
}

/**
 * The audit draw's inclusion probabilities, as the product draws them (libs/domain's
 * `auditUncertainty` and `auditProbability`): `uniform` π = rate; `uncertainty` π_i = min(1,
 * rate·(0.2 + 0.8·u_i/ū)), u_i = √(mean over the questions of 1 − c), c the calibrated probability
 * (`maps`, one per question) or, without maps, the judge's, ū the mean of u over the population: the
 * expected budget stays rate·N (less what the cap at 1 trims), and no evaluation falls below a fifth
 * of the uniform rate.
 */
function inclusionProbabilities(
  world: World,
  design: Design,
  rate: number,
  maps: readonly CalibrationMap[] | null,
): Float64Array {
  const pi = new Float64Array(world.size);
  if (design === 'uniform') return pi.fill(rate);
  const calibrate: Calibrate | undefined =
    design === 'uncertainty' && maps
      ? (questionId, p) => applyCalibration(maps[Number(questionId)], p)
      : undefined;
  const uncertainty = new Float64Array(world.size);
  let total = 0;
  for (let i = 0; i < world.size; i++) {
    const probabilities: Record<string, number> = {};
    world.probability.forEach((probability, q) => (probabilities[q] = probability[i]));
    uncertainty[i] = auditUncertainty(probabilities, false, calibrate);
    total += uncertainty[i];
  }
  const mean = total / world.size;
  const settings = { rate, strategy: 'uncertainty' } as const;
  for (let i = 0; i < world.size; i++) pi[i] = auditProbability(settings, uncertainty[i], mean);
  return pi;
}

/** Each question's map from a pilot of `pilotLabels` uniformly drawn and labeled answers. */
function pilotMaps(world: World, random: () => number): CalibrationMap[] {
  return QUESTIONS.map((_, q) =>
    fitCalibrationMap(
      simpleRandomSample(world.size, options.pilotLabels, random).map((i) => ({
        selectedProbability: world.probability[q][i],
        agreed: agreedAt(world, q, i),
        inclusionProbability: options.pilotLabels / world.size,
      })),
    )!,
  );
}

const choiceAnswer = (choice: string, probability?: number): Answer => ({
  type: 'choice',
  choice,
  ...(probability === undefined ? {} : { probabilities: { [choice]: probability } }),
});

/** Running coverage and width of one kind of interval. */
class IntervalTally {
  intervals = 0;
  covered = 0;
  width = 0;
  missing = 0;

  add(interval: { low: number | null; high: number | null }, truth: number): void {
    if (interval.low === null || interval.high === null) {
      this.missing++;
      return;
    }
    this.intervals++;
    if (interval.low <= truth && truth <= interval.high) this.covered++;
    this.width += interval.high - interval.low;
  }

  get figures() {
    return {
      intervals: this.intervals,
      missing: this.missing,
      coverage: this.intervals ? this.covered / this.intervals : 0,
      meanWidth: this.intervals ? this.width / this.intervals : 0,
    };
  }
}

/** One repetition's audit under one design: the accuracy interval and every corrected share's. */
function auditRound(
  world: World,
  design: Design,
  maps: readonly CalibrationMap[],
  random: () => number,
  tallies: { accuracy: IntervalTally; shares: IntervalTally; labels: number[] },
): void {
  const pi = inclusionProbabilities(world, design, options.auditRate, maps);
  const evaluations: AuditedEvaluation[] = [];
  const categories: AuditedCategory[][] = QUESTIONS.map(() => []);
  for (let i = 0; i < world.size; i++) {
    if (random() >= pi[i]) continue;
    evaluations.push({
      inclusionProbability: pi[i],
      labeled: QUESTIONS.map((question, q) => ({
        model: choiceAnswer(question.values[world.judge[q][i]], world.probability[q][i]),
        label: choiceAnswer(question.values[world.label[q][i]]),
      })),
    });
    QUESTIONS.forEach((question, q) =>
      categories[q].push({
        judge: question.values[world.judge[q][i]],
        label: question.values[world.label[q][i]],
        inclusionProbability: pi[i],
      }),
    );
  }
  tallies.labels.push(evaluations.length);
  let allAgree = 0;
  for (let i = 0; i < world.size; i++)
    if (QUESTIONS.every((_, q) => world.judge[q][i] === world.label[q][i])) allAgree++;
  tallies.accuracy.add(autoDecisionAccuracy(evaluations, options.confidence), allAgree / world.size);
  QUESTIONS.forEach((question, q) => {
    question.values.forEach((value, v) => {
      let judgeCount = 0;
      let labelCount = 0;
      for (let i = 0; i < world.size; i++) {
        if (world.judge[q][i] === v) judgeCount++;
        if (world.label[q][i] === v) labelCount++;
      }
      const share = predictionPoweredShare(
        value,
        { answered: world.size, judgeCount },
        categories[q],
        options.confidence,
      );
      tallies.shares.add(share, labelCount / world.size);
    });
  });
}

/** `count` distinct indices out of `size` (count ≪ size), drawing again on a repeat. */
function simpleRandomSample(size: number, count: number, random: () => number): number[] {
  const taken = new Set<number>();
  while (taken.size < count) taken.add(Math.floor(random() * size));
  return [...taken];
}

const agreedAt = (world: World, q: number, i: number) => world.judge[q][i] === world.label[q][i];

/**
 * ECE against the known truth over the whole population: each answer's forecast against its true
 * chance of agreement, in the product's ten bins (the same sum as `expectedCalibrationError`,
 * written out to spare 20,000 objects a call).
 */
function trueEce(world: World, q: number, forecast: (p: number) => number): number {
  const gap = new Float64Array(ECE_BINS);
  for (const p of world.probability[q]) {
    const probability = forecast(p);
    gap[Math.min(ECE_BINS - 1, Math.floor(probability * ECE_BINS))] += trueAgreement(p) - probability;
  }
  return gap.reduce((sum, value) => sum + Math.abs(value), 0) / world.size;
}

interface EceTally {
  labels: number;
  raw: number;
  calibrated: number;
  estimatedRaw: number;
  estimatedCalibrated: number;
  platt: number;
  maps: number;
  /** Calibrated ECE (truth) of each method, whichever the map would take: the evidence for ISOTONIC_MIN_LABELS. */
  plattOnly: number;
  isotonicOnly: number;
}

/** Maps fitted on `labels` uniformly drawn answers per question; their ECE against the truth and as estimated. */
function calibrationRound(world: World, random: () => number, tallies: EceTally[]): void {
  const raw = QUESTIONS.map((_, q) => trueEce(world, q, (p) => p));
  for (const tally of tallies) {
    QUESTIONS.forEach((_, q) => {
      const sample: AuditedAnswer[] = simpleRandomSample(world.size, tally.labels, random).map((i) => ({
        selectedProbability: world.probability[q][i],
        agreed: agreedAt(world, q, i),
        inclusionProbability: tally.labels / world.size,
      }));
      const map = fitCalibrationMap(sample)!;
      const estimated = calibrationErrors(sample);
      const errorOf = (method: 'platt' | 'isotonic') => {
        const fitted = map.method === method ? map : fitCalibrationMap(sample, method)!;
        return trueEce(world, q, (p) => applyCalibration(fitted, p));
      };
      const plattOnly = errorOf('platt');
      const isotonicOnly = errorOf('isotonic');
      tally.plattOnly += plattOnly;
      tally.isotonicOnly += isotonicOnly;
      tally.raw += raw[q];
      tally.calibrated += map.method === 'platt' ? plattOnly : isotonicOnly;
      tally.estimatedRaw += estimated.raw!;
      tally.estimatedCalibrated += estimated.calibrated!;
      if (map.method === 'platt') tally.platt++;
      tally.maps++;
    });
  }
}

interface ThresholdTally {
  questions: number;
  found: number;
  /** Questions whose realized agreement at or above the threshold reached the target (a null threshold promises nothing, so counts). */
  held: number;
  heldWithThreshold: number;
  oracleFound: number;
  coverage: number;
  oracleCoverage: number;
  /** Sum over questions with an oracle threshold of coverage / oracle coverage (0 without a threshold). */
  coverageRatio: number;
  /** The same sum for the typical sample's threshold (`typicalSampleCoverage`): what the walk could reach without bad luck. */
  typicalRatio: number;
}

/**
 * The coverage the walk would certify from a typical sample of `labels` uniform labels: one whose
 * every stratum holds its expected share of them, agreeing at the population's rate. Not a bound on
 * any sample; it says where the promise itself puts the threshold before any sampling noise, so a
 * coverage ratio far under 1 here is the price of the guarantee, not of the method. Strata every 50
 * answers from the top, tested in the walk's order from its first tested size.
 */
function typicalSampleCoverage(
  probability: Float64Array,
  agreement: (p: number) => number,
  labels: number,
): number {
  const sorted = Float64Array.from(probability).sort().reverse();
  const start = firstTestedStratumSize(options.targetAgreement, options.delta);
  let chance = 0;
  let coverage = 0;
  for (let i = 0; i < sorted.length; i++) {
    chance += agreement(sorted[i]);
    const count = i + 1;
    if (count % 50 !== 0) continue;
    const expected = (labels * count) / sorted.length;
    if (expected < start) continue;
    const bound = clopperPearsonLower((chance / count) * expected, expected, options.delta);
    if (bound < options.targetAgreement) break;
    coverage = count / sorted.length;
  }
  return coverage;
}

/**
 * The oracle: the lowest t whose true population agreement (the mean chance of agreement of the
 * answers at or above it) reaches the target, and the share of answers at or above it; null when
 * no t does.
 */
function oracleThreshold(probability: Float64Array, agreement: (p: number) => number, target: number) {
  const sorted = Float64Array.from(probability).sort();
  let chance = 0;
  let best: { threshold: number; coverage: number } | null = null;
  for (let i = sorted.length - 1; i >= 0; i--) {
    chance += agreement(sorted[i]);
    // A stratum holds every tie of its threshold.
    if (i > 0 && sorted[i - 1] === sorted[i]) continue;
    const count = sorted.length - i;
    if (chance / count >= target) best = { threshold: sorted[i], coverage: count / sorted.length };
  }
  return best;
}

/**
 * The threshold's labels: `thresholdLabels` answers per question, uniformly (exactly that many, π
 * equal), or by the `uncertainty` audit draw at the rate that expects that many (weighted, so the
 * bound takes Kish's effective counts).
 */
function thresholdSample(
  world: World,
  q: number,
  design: Design,
  maps: readonly CalibrationMap[],
  random: () => number,
): AuditedAnswer[] {
  const rate = options.thresholdLabels / world.size;
  const item = (i: number, inclusionProbability: number) => ({
    selectedProbability: world.probability[q][i],
    agreed: agreedAt(world, q, i),
    inclusionProbability,
  });
  if (design === 'uniform')
    return simpleRandomSample(world.size, options.thresholdLabels, random).map((i) => item(i, rate));
  const pi = inclusionProbabilities(world, design, rate, maps);
  const sample: AuditedAnswer[] = [];
  for (let i = 0; i < world.size; i++) if (random() < pi[i]) sample.push(item(i, pi[i]));
  return sample;
}

function thresholdRound(
  world: World,
  agreement: (p: number) => number,
  design: Design,
  maps: readonly CalibrationMap[],
  random: () => number,
  tally: ThresholdTally,
): void {
  QUESTIONS.forEach((_, q) => {
    const probability = world.probability[q];
    const agreed = new Uint8Array(world.size);
    for (let i = 0; i < world.size; i++) agreed[i] = world.judge[q][i] === world.label[q][i] ? 1 : 0;
    const sample = thresholdSample(world, q, design, maps, random);
    const result = guaranteedThreshold(
      sample,
      Array.from(probability),
      options.targetAgreement,
      options.delta,
    );
    const oracle = oracleThreshold(probability, agreement, options.targetAgreement);
    tally.questions++;
    if (oracle) {
      tally.oracleFound++;
      tally.oracleCoverage += oracle.coverage;
      tally.coverageRatio += (result.coverage ?? 0) / oracle.coverage;
      if (design === 'uniform')
        tally.typicalRatio +=
          typicalSampleCoverage(probability, agreement, options.thresholdLabels) / oracle.coverage;
    }
    if (result.threshold === null) {
      tally.held++;
      return;
    }
    tally.found++;
    tally.coverage += result.coverage!;
    let above = 0;
    let agreeing = 0;
    for (let i = 0; i < world.size; i++)
      if (probability[i] >= result.threshold) {
        above++;
        agreeing += agreed[i];
      }
    if (agreeing / above >= options.targetAgreement) {
      tally.held++;
      tally.heldWithThreshold++;
    }
  });
}

/**
 * The Godambe–Joshi bound for `autoDecisionAccuracy` in one world: no design-unbiased estimator
 * from a draw of expected size n = rate·N has an anticipated variance below Σ(1/π_i − 1)σ_i²/N²,
 * σ_i² = Q_i(1 − Q_i) + (Q_i − θ)² (Q_i the true chance of agreeing on every question, θ their
 * mean), least at Neyman's π_i ∝ σ_i: (Σσ)²/(nN²) − Σσ²/N². Its standard error over uniform's.
 */
function neymanAccuracyRatio(world: World): number {
  const chance = new Float64Array(world.size);
  let theta = 0;
  for (let i = 0; i < world.size; i++) {
    chance[i] = world.probability.reduce(
      (product, probability) => product * trueAgreement(probability[i]),
      1,
    );
    theta += chance[i] / world.size;
  }
  let sum = 0;
  let squares = 0;
  for (const q of chance) {
    const variance = q * (1 - q) + (q - theta) ** 2;
    sum += Math.sqrt(variance);
    squares += variance;
  }
  const n = options.auditRate * world.size;
  const uniform = (1 / options.auditRate - 1) * squares;
  const neyman = (sum * sum) / n - squares;
  return Math.sqrt(neyman / uniform);
}

function statistics() {
  const audit = Object.fromEntries(
    DESIGNS.map((design) => [
      design,
      { accuracy: new IntervalTally(), shares: new IntervalTally(), labels: [] as number[] },
    ]),
  ) as Record<Design, { accuracy: IntervalTally; shares: IntervalTally; labels: number[] }>;
  const ece: EceTally[] = options.eceLabels.map((labels) => ({
    labels,
    raw: 0,
    calibrated: 0,
    estimatedRaw: 0,
    estimatedCalibrated: 0,
    platt: 0,
    maps: 0,
    plattOnly: 0,
    isotonicOnly: 0,
  }));
  const emptyTally = (): ThresholdTally => ({
    questions: 0,
    found: 0,
    held: 0,
    heldWithThreshold: 0,
    oracleFound: 0,
    coverage: 0,
    oracleCoverage: 0,
    coverageRatio: 0,
    typicalRatio: 0,
  });
  const thresholds = {
    overconfident: emptyTally(),
    sureWhenCertain: emptyTally(),
    sureWhenCertainWeighted: emptyTally(),
  };
  let neymanRatios = 0;
  const started = performance.now();
  for (let rep = 0; rep < options.reps; rep++) {
    const random = generator(options.seed * 1_000_003 + rep);
    const world = drawWorld(options.evaluations, random);
    const maps = pilotMaps(world, random);
    neymanRatios += neymanAccuracyRatio(world);
    for (const design of DESIGNS) auditRound(world, design, maps, random, audit[design]);
    calibrationRound(world, random, ece);
    thresholdRound(world, trueAgreement, 'uniform', maps, random, thresholds.overconfident);
    const sure = drawWorld(options.evaluations, random, sureWhenCertain);
    const sureMaps = pilotMaps(sure, random);
    thresholdRound(sure, sureWhenCertain, 'uniform', sureMaps, random, thresholds.sureWhenCertain);
    thresholdRound(
      sure,
      sureWhenCertain,
      'uncertainty',
      sureMaps,
      random,
      thresholds.sureWhenCertainWeighted,
    );
    if ((rep + 1) % 50 === 0)
      log(
        `${rep + 1} of ${options.reps} repetitions, ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
  }
  return {
    seconds: (performance.now() - started) / 1000,
    neymanAccuracyRatio: neymanRatios / options.reps,
    audit: Object.fromEntries(
      DESIGNS.map((design) => {
        const { accuracy, shares, labels } = audit[design];
        const meanLabels = labels.reduce((sum, n) => sum + n, 0) / labels.length;
        return [design, { meanLabels, accuracy: accuracy.figures, shares: shares.figures }];
      }),
    ) as Record<
      Design,
      { meanLabels: number; accuracy: IntervalTally['figures']; shares: IntervalTally['figures'] }
    >,
    ece: ece.map((tally) => ({
      labels: tally.labels,
      maps: tally.maps,
      plattShare: tally.platt / tally.maps,
      raw: tally.raw / tally.maps,
      calibrated: tally.calibrated / tally.maps,
      estimatedRaw: tally.estimatedRaw / tally.maps,
      estimatedCalibrated: tally.estimatedCalibrated / tally.maps,
      plattOnly: tally.plattOnly / tally.maps,
      isotonicOnly: tally.isotonicOnly / tally.maps,
    })),
    thresholds: {
      overconfident: thresholdFigures(thresholds.overconfident),
      sureWhenCertain: thresholdFigures(thresholds.sureWhenCertain),
      sureWhenCertainWeighted: thresholdFigures(thresholds.sureWhenCertainWeighted),
    },
  };
}

function thresholdFigures(tally: ThresholdTally) {
  return {
    ...tally,
    meanCoverage: tally.found ? tally.coverage / tally.found : 0,
    meanOracleCoverage: tally.oracleFound ? tally.oracleCoverage / tally.oracleFound : 0,
    meanCoverageRatio: tally.oracleFound ? tally.coverageRatio / tally.oracleFound : null,
    meanTypicalRatio: tally.oracleFound ? tally.typicalRatio / tally.oracleFound : null,
  };
}

type Statistics = ReturnType<typeof statistics>;

function renderStatistics(s: Statistics): string {
  const f3 = fixed(3);
  const f4 = fixed(4);
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  const audit = DESIGNS.map((design) => s.audit[design]);
  const { uniform, uncertainty } = s.audit;
  const ece200 = s.ece.find((row) => row.labels === 200);
  const { overconfident, sureWhenCertain, sureWhenCertainWeighted } = s.thresholds;
  const t = [overconfident, sureWhenCertain, sureWhenCertainWeighted];
  const relative = (width: number) =>
    `${f4(width)} (${((width / uniform.accuracy.meanWidth - 1) * 100).toFixed(1)}%)`;
  const relativeShare = (width: number) =>
    `${f4(width)} (${((width / uniform.shares.meanWidth - 1) * 100).toFixed(1)}%)`;
  return [
    `#### Part 1: the estimators on a synthetic world (${s.seconds.toFixed(0)} s)`,
    '',
    table(
      ['figure', ...DESIGNS, 'goal', ''],
      [
        ['labels per repetition (mean)', ...audit.map((a) => a.meanLabels.toFixed(0)), 'the same budget', ''],
        [
          '`autoDecisionAccuracy` interval coverage',
          ...audit.map((a) => f3(a.accuracy.coverage)),
          '≥ 0.94',
          met(audit.every((a) => a.accuracy.coverage >= 0.94)),
        ],
        [
          '`correctedShare` interval coverage',
          ...audit.map((a) => f3(a.shares.coverage)),
          '≥ 0.94',
          met(audit.every((a) => a.shares.coverage >= 0.94)),
        ],
        [
          '`autoDecisionAccuracy` mean width (against uniform)',
          ...audit.map((a) => relative(a.accuracy.meanWidth)),
          'uncertainty narrower',
          met(uncertainty.accuracy.meanWidth < uniform.accuracy.meanWidth),
        ],
        [
          '`correctedShare` mean width (against uniform)',
          ...audit.map((a) => relativeShare(a.shares.meanWidth)),
          'uncertainty narrower',
          met(uncertainty.shares.meanWidth < uniform.shares.meanWidth),
        ],
        [
          'the least standard error any draw of this budget could give `autoDecisionAccuracy` (Neyman, anticipated), against uniform’s',
          `${((s.neymanAccuracyRatio - 1) * 100).toFixed(2)}%`,
          '',
          '',
          '',
          '',
        ],
      ],
    ),
    '',
    table(
      [
        'labels per question',
        'map',
        'raw ECE (truth)',
        'calibrated ECE (truth)',
        'raw ECE (estimated)',
        'calibrated ECE (cross-fitted)',
        'calibrated ECE (truth), Platt',
        'calibrated ECE (truth), isotonic',
      ],
      s.ece.map((row) => [
        String(row.labels),
        row.plattShare === 1
          ? 'Platt'
          : row.plattShare === 0
            ? 'isotonic'
            : `Platt ${(row.plattShare * 100).toFixed(0)}%`,
        f3(row.raw),
        f3(row.calibrated),
        f3(row.estimatedRaw),
        f3(row.estimatedCalibrated),
        f3(row.plattOnly),
        f3(row.isotonicOnly),
      ]),
    ),
    '',
    ece200
      ? `ECE goal: calibrated at most 0.03 with 200 labels where raw is at least 0.1: ${f3(ece200.calibrated)} against ${f3(ece200.raw)}, ${met(ece200.calibrated <= 0.03 && ece200.raw >= 0.1)}.`
      : '',
    '',
    table(
      [
        'figure',
        'judge 0.5 + 0.7·(p − 0.5), uniform labels',
        'judge 0.5 + 2·(p − 0.5)², uniform labels',
        'judge 0.5 + 2·(p − 0.5)², `uncertainty` labels (weighted)',
        'goal',
        '',
      ],
      [
        ['questions with a guaranteed threshold', ...t.map((x) => `${x.found} of ${x.questions}`), '', ''],
        ['questions with an oracle threshold', ...t.map((x) => `${x.oracleFound} of ${x.questions}`), '', ''],
        [
          'realized agreement at or above the threshold reaches the target (no threshold counts as kept)',
          ...t.map((x) => f3(x.held / x.questions)),
          `≥ ${1 - options.delta}`,
          met(t.every((x) => x.held / x.questions >= 1 - options.delta)),
        ],
        [
          'the same, among questions with a threshold',
          ...t.map((x) => (x.found ? f3(x.heldWithThreshold / x.found) : '–')),
          '',
          '',
        ],
        [
          'mean coverage at the guaranteed threshold (when there is one)',
          ...t.map((x) => (x.found ? f3(x.meanCoverage) : '–')),
          '',
          '',
        ],
        [
          'mean coverage at the oracle threshold',
          ...t.map((x) => (x.oracleFound ? f3(x.meanOracleCoverage) : '–')),
          '',
          '',
        ],
        [
          'coverage against the oracle (mean ratio, 0 without a threshold)',
          ...t.map((x) => (x.meanCoverageRatio === null ? 'no oracle' : f3(x.meanCoverageRatio))),
          '≥ 0.8',
          met(t.every((x) => x.meanCoverageRatio === null || x.meanCoverageRatio >= 0.8)),
        ],
        [
          'the same for a typical sample (every stratum at its expected labels and the population’s agreement): the promise’s own price',
          ...t.map((x, i) => (x.meanTypicalRatio === null || i === 2 ? '–' : f3(x.meanTypicalRatio))),
          '',
          '',
        ],
      ],
    ),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The run: the parts asked for, one section in docs/performance.md.
// ---------------------------------------------------------------------------------------------

interface QualityResults extends Results<typeof settings> {
  statistics: Statistics | null;
  round: RoundFigures | null;
  route: RouteFigures | null;
}

function renderRound(r: RoundFigures): string {
  const f3 = fixed(3);
  const { accuracy } = r;
  const interval = accuracy.low === null ? 'none' : `${f3(accuracy.low)}–${f3(accuracy.high!)}`;
  return [
    `#### Part 2: one round through the API, a worker and SQL (${r.seconds.toFixed(0)} s)`,
    '',
    table(
      ['figure', 'value'],
      [
        ['tickets judged through POST /api/judge (audit `uncertainty`)', String(r.tickets)],
        ["automatic decisions (the route's `autoDecided`)", String(r.autoDecided)],
        [
          'selected for audit and labeled on every question through the labels route',
          `${r.selected} (route: ${r.labeled})`,
        ],
        [
          "`autoDecisionAccuracy` against the round's true accuracy",
          `${accuracy.estimate === null ? 'null' : f3(accuracy.estimate)} (${interval}, ${accuracy.labels} labels) against ${f3(accuracy.truth)}: ${accuracy.contains ? 'inside' : '**outside**'}`,
        ],
        [
          "`correctedShare` intervals holding the round's true share",
          `${r.shares.contained} of ${r.shares.intervals}`,
        ],
        [
          'largest difference from the same estimators run on the labels read back',
          r.largestDifference.toExponential(1),
        ],
        [
          `the worker's refit: every question's map within ${REFIT_AFTER_NEW_LABELS} labels of all (its refit step), after the last label`,
          r.refit.seconds === null
            ? '**not within 120 s**'
            : `${r.refit.seconds.toFixed(1)} s (labels ${r.refit.labels.join(', ')})`,
        ],
      ],
    ),
  ].join('\n');
}

function renderRoute(route: RouteFigures): string {
  return [
    `GET /api/packs/{id}/quality at ${route.evaluations.toLocaleString('en-US')} live evaluations in its 30-day window, ${route.labeledAudits.toLocaleString('en-US')} labeled audits (seeded in ${route.seedSeconds.toFixed(0)} s), ${route.timing.requests} sequential requests after 20 warm-up: ` +
      `p50 ${route.timing.p50.toFixed(1)} ms, p95 ${route.timing.p95.toFixed(1)} ms, p99 ${route.timing.p99.toFixed(1)} ms (goal: p95 under 100 ms, ${route.timing.p95 < 100 ? 'met' : '**missed**'}).`,
  ].join('\n');
}

function render(r: QualityResults): string {
  const s = r.settings;
  return [
    runHeading(
      r,
      `${s.reps} repetitions (seed ${s.seed}) of ${s.evaluations.toLocaleString('en-US')} automatic decisions over ${QUESTIONS.length} questions, ` +
        `audit rate ${s.auditRate}, confidence ${s.confidence}; ECE with ${s.eceLabels.join(', ')} labels per question; ` +
        `guaranteed threshold at target ${s.targetAgreement}, δ ${s.delta}, with ${s.thresholdLabels} audit labels per question; ` +
        `round: ${s.roundTickets} tickets at audit rate ${s.roundAuditRate}`,
    ),
    '',
    r.statistics ? renderStatistics(r.statistics) : '(part 1 not run)',
    '',
    r.round ? renderRound(r.round) : '(part 2, the round, not run)',
    '',
    r.route ? renderRoute(r.route) : '(part 2, the route at scale, not run)',
  ].join('\n');
}

runMain(() =>
  BenchRun.with('quality', options, {}, async (run) => {
    const statisticsPart = options.parts.includes('statistics')
      ? (log('part 1: the statistics'), statistics())
      : null;
    const random = generator(options.seed);
    const round = options.parts.includes('round')
      ? await qualityRound(
          run,
          { statedProbability, trueAgreement, random },
          {
            tickets: options.roundTickets,
            auditRate: options.roundAuditRate,
            confidence: options.confidence,
          },
        )
      : null;
    const route = options.parts.includes('route')
      ? await qualityRouteAtScale(run, {
          evaluations: options.routeEvaluations,
          labeledAudits: options.routeLabels,
          requests: options.routeRequests,
        })
      : null;
    publish<QualityResults>(
      {
        benchmark: 'quality',
        at: new Date().toISOString(),
        machine: run.machine,
        settings,
        statistics: statisticsPart,
        round,
        route,
      },
      render,
      options.writeDocs,
    );
  }),
);
