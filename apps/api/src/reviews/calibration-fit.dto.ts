import { ApiProperty } from '@nestjs/swagger';
import { CalibrationUsedDto } from '../judging/calibrated.dto.js';

class QuestionFitDto {
  @ApiProperty({ example: 'department' })
  questionId: string;

  @ApiProperty({
    type: 'integer',
    description:
      "Labels the fit had for this question: on evaluations of any published version of the pack whose question has this id and the live question's wording (every key but `id` and `review`), where the judge answered it.",
  })
  labels: number;

  @ApiProperty({
    type: CalibrationUsedDto,
    nullable: true,
    description:
      'The fitted map; null with fewer than `minLabels` labels, when the question keeps its raw probability (and any earlier map of this wording is dropped).',
  })
  map: CalibrationUsedDto | null;
}

export class CalibrationFitDto {
  @ApiProperty({ format: 'uuid' })
  packId: string;

  @ApiProperty({ format: 'uuid', description: 'The live version whose questions were fitted.' })
  versionId: string;

  @ApiProperty({ format: 'date-time' })
  fittedAt: string;

  @ApiProperty({ type: 'integer', example: 10, description: 'Labels a question needs for a map.' })
  minLabels: number;

  @ApiProperty({
    type: [QuestionFitDto],
    description: "Every question of the live version, in the document's order.",
  })
  questions: QuestionFitDto[];
}
