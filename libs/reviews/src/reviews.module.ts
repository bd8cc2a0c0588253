import { Module } from '@nestjs/common';
import { JudgingModule } from '@app/judging';
import { CalibrationFitService } from './calibration-fit.service.js';
import { CalibrationService } from './calibration.service.js';
import { QualityService } from './quality.service.js';
import { LabelExports } from './label.export.js';
import { LabelService } from './label.service.js';
import { ReviewService } from './review.service.js';
import { StatsService } from './stats.service.js';

const SERVICES = [
  LabelService,
  LabelExports,
  ReviewService,
  StatsService,
  CalibrationService,
  QualityService,
  CalibrationFitService,
];

/** JudgingModule: evaluation views and their calibrated fields (CalibrationReader). */
@Module({ imports: [JudgingModule], providers: SERVICES, exports: SERVICES })
export class ReviewsModule {}
