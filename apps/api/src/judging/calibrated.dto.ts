import { ApiProperty, getSchemaPath, type ApiPropertyOptions } from '@nestjs/swagger';

export class CalibrationUsedDto {
  @ApiProperty({ format: 'date-time', description: 'When the map was fitted.' })
  fittedAt: string;

  @ApiProperty({ type: 'integer', description: 'Labels the map was fitted from.', example: 40 })
  labels: number;

  @ApiProperty({
    enum: ['platt', 'isotonic'],
    description:
      "Platt scaling below 1,000 labels, isotonic regression from there (docs/quality.md, 'Calibration').",
  })
  method: 'platt' | 'isotonic';
}

/** `calibrated`, beside `result` on an evaluation read (the evaluation, review and audit items). */
export const CALIBRATED_PROPERTY: ApiPropertyOptions = {
  type: 'object',
  nullable: true,
  additionalProperties: { type: 'number', minimum: 0, maximum: 1 },
  description:
    "Per question id, the calibrated probability: the chance that a reviewer agrees with the judge's answer, read from the question's calibration map at the answer's selected probability (`selectedProbabilities`). Only questions that were answered and have a map: one is fitted by POST /api/packs/{packId}/calibration/fit or by the worker, from at least 10 labels on evaluations of versions asking the question in the same words. Null when no question of the evaluation has one. The decision rule reads it for questions with `review.useCalibrated`.",
  example: { department: 0.74 },
};

/** `calibratedWith`: the maps behind the calibrated probabilities. */
export class CalibratedWithDto extends CalibrationUsedDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(CalibrationUsedDto) },
    description: 'Per question id of `calibrated`, the map it was read from.',
    example: { department: { fittedAt: '2026-11-20T10:00:00.000Z', labels: 40, method: 'platt' } },
  })
  questions: Record<string, CalibrationUsedDto>;
}

export const CALIBRATED_WITH_PROPERTY: ApiPropertyOptions = {
  type: CalibratedWithDto,
  nullable: true,
  description:
    "The maps behind `calibrated`: `fittedAt`, `labels` and `method` are those of the map with the fewest labels (the least certain; a pack's maps are fitted together, so `fittedAt` is usually the same for all), and `questions` gives each question's. Null exactly when `calibrated` is.",
};
