export {
  hajekMean,
  inclusionWeight,
  kishEffectiveSize,
  weightedProportion,
  wilsonInterval,
  zForConfidence,
  type AuditedAnswer,
  type ShareEstimate,
  type WeightedAgreement,
} from './weighted.js';
export { agreesOnEveryQuestion, autoDecisionAccuracy, type AuditedEvaluation } from './accuracy.js';
export {
  predictionPoweredShare,
  predictionPoweredShares,
  type AuditedCategory,
  type CorrectedShare,
} from './ppi.js';
export {
  applyCalibration,
  calibrationMethodFor,
  fitCalibrationMap,
  fitPlatt,
  isotonicPoints,
  ISOTONIC_MIN_LABELS,
  PLATT_GRID_STEPS,
  plattGrid,
  PLATT_RIDGE,
  plattProbability,
  type CalibrationMap,
  type CalibrationPoint,
  type PlattFit,
} from './calibration-map.js';
export {
  calibrationErrors,
  CROSS_FIT_FOLDS,
  crossFitFolds,
  ECE_BINS,
  expectedCalibrationError,
  type CalibrationErrors,
  type WeightedForecast,
} from './ece.js';
export {
  clopperPearsonLower,
  firstTestedStratumSize,
  guaranteedThreshold,
  minimumStratumSize,
  type GuaranteedThreshold,
} from './guaranteed-threshold.js';
