import { Injectable } from '@nestjs/common';
import { answerCell, NotFoundError, type Answer, type ExportCell, type ExportTable } from '@app/domain';
import { PackVersionLookup, SimulationRepository, type ComparedTicket } from '@app/persistence';
import { changedTicket, pairQuestionIds, SimulationService } from './simulation.service.js';

/** The fixed columns of a simulation's results export; one `answer:<questionId>` column per question follows. */
export const SIMULATION_RESULT_COLUMNS = [
  'position',
  'externalId',
  'subject',
  'status',
  'evaluationId',
] as const;

/** The fixed columns of a comparison's export; `before:<questionId>` and `after:<questionId>` per question follow. */
export const COMPARISON_COLUMNS = ['externalId', 'subject', 'fromStatus', 'toStatus'] as const;

/**
 * Simulations as tables for the CSV exports. Both are bounded by the dataset's 250 tickets, so each
 * is one query, checked (404, 409) before any row is produced; answers are written as labels and
 * expected answers write them (`answerCell`).
 */
@Injectable()
export class SimulationExports {
  constructor(
    private readonly simulations: SimulationRepository,
    private readonly versions: PackVersionLookup,
    private readonly service: SimulationService,
  ) {}

  /** The run's judged tickets by position, with an answer column per question of its version, in its order. */
  async results(userId: string, id: string): Promise<{ simulationId: string; table: ExportTable }> {
    const simulation = await this.simulations.find(userId, id);
    if (!simulation) throw new NotFoundError('simulation not found');
    const version = await this.versions.find(userId, simulation.packVersionId);
    const questionIds = version?.document.questions.map((question) => question.id) ?? [];
    const rows = await this.simulations.results(userId, simulation.id);
    const cells = rows.map((row): ExportCell[] => [
      row.position,
      row.externalId,
      row.subject,
      row.status,
      row.evaluationId,
      ...questionIds.map((questionId) => answerCell(answerOf(row.answers, questionId))),
    ]);
    return {
      simulationId: simulation.id,
      table: {
        columns: [...SIMULATION_RESULT_COLUMNS, ...questionIds.map((questionId) => `answer:${questionId}`)],
        rows: cells,
      },
    };
  }

  /**
   * The comparison's changed tickets (those GET /api/simulations/{id}/compare/{otherId} lists), with
   * both answers to every question either run answered, sorted by id, changed or not.
   */
  async comparison(
    userId: string,
    fromId: string,
    toId: string,
  ): Promise<{ from: string; to: string; table: ExportTable }> {
    const { from, to, pairs } = await this.service.comparedPairs(userId, fromId, toId);
    const questionIds = [...new Set(pairs.flatMap(pairQuestionIds))].sort();
    const cells = pairs
      .filter((pair) => changedTicket(pair) !== null)
      .map((pair): ExportCell[] => [
        pair.externalId,
        pair.subject,
        pair.fromStatus,
        pair.toStatus,
        ...questionIds.flatMap((questionId) => [
          answerCell(answerOf(pair.fromAnswers, questionId)),
          answerCell(answerOf(pair.toAnswers, questionId)),
        ]),
      ]);
    const answerColumns = questionIds.flatMap((questionId) => [
      `before:${questionId}`,
      `after:${questionId}`,
    ]);
    return {
      from: from.id,
      to: to.id,
      table: { columns: [...COMPARISON_COLUMNS, ...answerColumns], rows: cells },
    };
  }
}

function answerOf(answers: ComparedTicket['fromAnswers'], questionId: string): Answer | undefined {
  return answers && Object.hasOwn(answers, questionId) ? (answers[questionId] as Answer) : undefined;
}
