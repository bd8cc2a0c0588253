import { ApiProperty } from '@nestjs/swagger';

/** The cost of several evaluations (docs/cost.md), shared by the stats and simulation views. */
export class CostSumDto {
  @ApiProperty({
    description:
      'USD: the sum of the known costs of these evaluations (each its tokens at its model’s price in `MODEL_PRICES`; `local-lexical-1` costs 0). When `unknownCostEvaluations` is above 0 it leaves those out, so it is a lower bound, not the full cost.',
    example: 0.0125,
  })
  costUsd: number;

  @ApiProperty({
    type: 'integer',
    description:
      'Evaluations whose cost is unknown: their model has no price in `MODEL_PRICES` (the service ships none), or they were judged before costs were recorded. Their tokens are still counted.',
  })
  unknownCostEvaluations: number;
}
