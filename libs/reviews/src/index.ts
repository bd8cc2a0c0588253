export { ReviewsModule } from './reviews.module.js';
export { LabelExports, LABEL_EXPORT_BATCH } from './label.export.js';
export { LabelService, type LabelInput } from './label.service.js';
export {
  ReviewService,
  REVIEWS_PAGE_SIZE,
  REVIEWS_TOTAL_CAP,
  type ReviewItemView,
  type ReviewListOptions,
  type ReviewOrder,
  type ReviewPage,
} from './review.service.js';
export { StatsService, STATS_DAYS, utcDays, type StatsView } from './stats.service.js';
export {
  CalibrationService,
  THRESHOLD_PREVIEW_DAYS,
  type CalibrationView,
  type ThresholdPreviewView,
} from './calibration.service.js';
export {
  auditLabelsForMargin,
  QUALITY_CARD_PACKS,
  QUALITY_DAYS,
  QUALITY_MAX_DAYS,
  QualityService,
  qualityWindow,
  type PackQualityView,
  type QualityQuery,
  type QualityView,
  type QuestionQualityView,
} from './quality.service.js';
export {
  CalibrationFitService,
  type CalibrationFitView,
  type QuestionFitView,
} from './calibration-fit.service.js';
