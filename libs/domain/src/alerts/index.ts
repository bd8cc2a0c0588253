export * from './alert-rules.js';
export {
  oneSidedZ,
  populationStabilityIndex,
  twoProportionZ,
  wilsonUpperBound,
  type PsiBin,
  type PsiResult,
} from './alert-statistics.js';
export * from './alert-checks.js';
