import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import {
  answerCategory,
  ConflictError,
  expectedAgreement,
  initialSimulationState,
  NotFoundError,
  type Answer,
  type ExpectedAgreementReport,
} from '@app/domain';
import {
  DatasetRepository,
  PackRepository,
  PackVersionLookup,
  SimulationRepository,
  type ComparedTicket,
  type SimulationRow,
} from '@app/persistence';
import { WebhookQueue } from '@app/webhooks';
import { SimulationQueue } from './simulation-queue.js';
import {
  toSimulationListItemView,
  toSimulationView,
  type ExpectedDisagreementPage,
  type SimulationListItemView,
  type SimulationView,
} from './simulation.views.js';

/** The most disagreeing tickets one answer lists (a question's are at most the dataset's 250). */
export const MAX_LISTED_DISAGREEMENTS = 500;

export interface StartSimulationInput {
  datasetId: string;
  packId: string;
  /** Any version of the pack, the draft included; the live version when absent. */
  packVersionId?: string;
  /** A name for the run (trimmed and checked by the caller); none when absent. */
  name?: string;
}

/** One ticket whose status or an answer differs between two runs. */
export interface ChangedTicket {
  ticketId: string;
  subject: string | null;
  externalId: string | null;
  fromEvaluationId: string;
  toEvaluationId: string;
  fromStatus: string;
  toStatus: string;
  /** The questions whose answer changed, with both answers (null where a run has none). */
  answers: Array<{ questionId: string; from: Answer | null; to: Answer | null }>;
}

export interface SimulationComparison {
  from: string;
  to: string;
  tickets: number;
  questions: Array<{ questionId: string; changed: number }>;
  statusChanges: Array<{ from: string; to: string; count: number }>;
  /** The tickets that changed status or any answer, in the dataset's order. */
  changedTickets: ChangedTicket[];
}

/** The API side of simulations: checks and records them, then hands them to the worker's queue. */
@Injectable()
export class SimulationService {
  private readonly logger = new Logger(SimulationService.name);

  constructor(
    private readonly simulations: SimulationRepository,
    private readonly datasets: DatasetRepository,
    private readonly packs: PackRepository,
    private readonly versions: PackVersionLookup,
    private readonly queue: SimulationQueue,
    private readonly webhooks: WebhookQueue,
  ) {}

  async start(userId: string, input: StartSimulationInput): Promise<{ id: string }> {
    const dataset = await this.datasets.find(userId, input.datasetId);
    if (!dataset) throw new NotFoundError('dataset not found');
    const pack = await this.packs.find(userId, input.packId);
    if (!pack) throw new NotFoundError('pack not found');
    let packVersionId = pack.liveVersionId;
    if (input.packVersionId !== undefined) {
      const version = await this.versions.find(userId, input.packVersionId);
      if (!version || version.packId !== pack.id) throw new NotFoundError('version not found');
      packVersionId = version.id;
    }
    if (!packVersionId) throw new ConflictError('pack has no published version');
    const id = randomUUID();
    const initial = initialSimulationState(dataset.ticketCount, new Date());
    const created = await this.simulations.create(userId, {
      id,
      datasetId: dataset.id,
      packId: pack.id,
      packVersionId,
      total: dataset.ticketCount,
      name: input.name ?? null,
      ...initial,
    });
    if (initial.status === 'queued') {
      // Recorded in Postgres first: if Redis is away now, the worker's sweeper enqueues it later.
      await this.queue
        .start(id)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, simulationId: id }, 'enqueue failed; the sweeper will retry'),
        );
    }
    // Nothing to judge: finished at once, and its completion is sent like any other.
    if (created.deliveryId) await this.webhooks.deliverSoon(created.deliveryId);
    return { id };
  }

  async list(userId: string): Promise<SimulationListItemView[]> {
    return (await this.simulations.list(userId)).map(toSimulationListItemView);
  }

  /** With `expectedAgreement` when tickets it judged carry expected answers. */
  async get(userId: string, id: string): Promise<SimulationView> {
    const simulation = await this.simulations.find(userId, id);
    if (!simulation) throw new NotFoundError('simulation not found');
    const report = await this.expectedReport(simulation);
    const view = toSimulationView(simulation);
    return report ? { ...view, expectedAgreement: report.questions } : view;
  }

  /**
   * The judged tickets whose answer differs from the expected one (all questions, or `questionId`'s),
   * by position then question order, at most MAX_LISTED_DISAGREEMENTS; `total` counts them all.
   */
  async disagreements(userId: string, id: string, questionId?: string): Promise<ExpectedDisagreementPage> {
    const simulation = await this.simulations.find(userId, id);
    if (!simulation) throw new NotFoundError('simulation not found');
    const all = (await this.expectedReport(simulation))?.disagreements ?? [];
    const matching = questionId === undefined ? all : all.filter((item) => item.questionId === questionId);
    return { items: matching.slice(0, MAX_LISTED_DISAGREEMENTS), total: matching.length };
  }

  /** The simulation against its dataset's expected answers, for its version's questions; null without any. */
  private async expectedReport(simulation: SimulationRow): Promise<ExpectedAgreementReport | null> {
    const rows = await this.simulations.expectedAnswers(simulation.userId, simulation.id);
    if (!rows.length) return null;
    const version = await this.versions.find(simulation.userId, simulation.packVersionId);
    const questionIds = version?.document.questions.map((question) => question.id) ?? [];
    return expectedAgreement(
      questionIds,
      rows.map((row) => ({ ...row, answers: row.answers ?? {} })),
    );
  }

  async cancel(userId: string, id: string): Promise<SimulationView> {
    const simulation = await this.simulations.find(userId, id);
    if (!simulation) throw new NotFoundError('simulation not found');
    if (!(await this.simulations.cancel(userId, id)))
      throw new ConflictError(`simulation already ${simulation.status}`);
    this.logger.log(
      { simulationId: id, completed: simulation.completed, total: simulation.total },
      'simulation cancelled',
    );
    return this.get(userId, id);
  }

  /** Per question, how many tickets changed answer; and how statuses moved, ticket by ticket. */
  async compare(userId: string, fromId: string, toId: string): Promise<SimulationComparison> {
    const { from, to, pairs } = await this.comparedPairs(userId, fromId, toId);
    const changed = new Map<string, number>();
    const moves = new Map<string, number>();
    const changedTickets: ChangedTicket[] = [];
    for (const pair of pairs) {
      for (const questionId of pairQuestionIds(pair)) changed.set(questionId, changed.get(questionId) ?? 0);
      const ticket = changedTicket(pair);
      for (const { questionId } of ticket?.answers ?? [])
        changed.set(questionId, changed.get(questionId)! + 1);
      const move = `${pair.fromStatus}->${pair.toStatus}`;
      moves.set(move, (moves.get(move) ?? 0) + 1);
      if (ticket) changedTickets.push(ticket);
    }
    return {
      from: from.id,
      to: to.id,
      tickets: pairs.length,
      questions: [...changed]
        .map(([questionId, count]) => ({ questionId, changed: count }))
        .sort((a, b) => a.questionId.localeCompare(b.questionId)),
      statusChanges: [...moves]
        .map(([move, count]) => {
          const [a, b] = move.split('->');
          return { from: a, to: b, count };
        })
        .sort((x, y) => `${x.from}${x.to}`.localeCompare(`${y.from}${y.to}`)),
      changedTickets,
    };
  }

  /**
   * Two completed simulations' evaluations over the same dataset, paired by ticket in the dataset's
   * order: `simulation not found` (404) or, for runs that cannot be compared, a conflict (409).
   */
  async comparedPairs(
    userId: string,
    fromId: string,
    toId: string,
  ): Promise<{ from: SimulationRow; to: SimulationRow; pairs: ComparedTicket[] }> {
    const [from, to] = await Promise.all([
      this.simulations.find(userId, fromId),
      this.simulations.find(userId, toId),
    ]);
    if (!from || !to) throw new NotFoundError('simulation not found');
    if (from.status !== 'completed' || to.status !== 'completed')
      throw new ConflictError('both simulations must be completed');
    if (from.datasetId !== to.datasetId) throw new ConflictError('simulations are over different datasets');
    return { from, to, pairs: await this.simulations.pairEvaluations(userId, from.id, to.id) };
  }
}

/** The question ids either run answered for the ticket, sorted. */
export function pairQuestionIds(pair: ComparedTicket): string[] {
  return [...new Set([...Object.keys(pair.fromAnswers ?? {}), ...Object.keys(pair.toAnswers ?? {})])].sort();
}

/** The ticket as a comparison lists it: null when its status and every answer's category are the same. */
export function changedTicket(pair: ComparedTicket): ChangedTicket | null {
  const answers: ChangedTicket['answers'] = [];
  for (const questionId of pairQuestionIds(pair)) {
    const fromAnswer = pair.fromAnswers?.[questionId] as Answer | undefined;
    const toAnswer = pair.toAnswers?.[questionId] as Answer | undefined;
    if (answerCategory(fromAnswer) !== answerCategory(toAnswer))
      answers.push({ questionId, from: fromAnswer ?? null, to: toAnswer ?? null });
  }
  if (!answers.length && pair.fromStatus === pair.toStatus) return null;
  return {
    ticketId: pair.ticketId,
    subject: pair.subject,
    externalId: pair.externalId,
    fromEvaluationId: pair.fromEvaluationId,
    toEvaluationId: pair.toEvaluationId,
    fromStatus: pair.fromStatus,
    toStatus: pair.toStatus,
    answers,
  };
}
