import { Module } from '@nestjs/common';
import { ReviewsModule } from '@app/reviews';
import { ReviewsController } from './reviews.controller.js';

@Module({ imports: [ReviewsModule], controllers: [ReviewsController] })
export class ReviewsApiModule {}
