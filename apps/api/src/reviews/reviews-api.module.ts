import { Module } from '@nestjs/common';
import { ReviewsModule } from '@app/reviews';
import { QualityController } from './quality.controller.js';
import { ReviewsController } from './reviews.controller.js';

@Module({ imports: [ReviewsModule], controllers: [ReviewsController, QualityController] })
export class ReviewsApiModule {}
