import {
  ACTIVE_SIMULATION_STATUSES,
  type Answer,
  type ExpectedAnswers,
  type SimulationStatus,
  type Ticket,
} from '@app/domain';
import { versionNumberSql } from './packs.statements.js';
import { defineStatement } from './statement.js';

/** The domain's active states as a SQL list, for the statements that guard a transition atomically. */
const ACTIVE = ACTIVE_SIMULATION_STATUSES.map((status) => `'${status}'`).join(', ');

/** What a statement that finished simulations reports for each: the completion delivery to send, if any. */
export interface FinishedSimulation {
  id: string;
  /** Null when the user has no completion endpoint. */
  deliveryId: string | null;
}

/**
 * A statement's tail that records the completion delivery of the simulations its `done` CTE just
 * finished (columns id, user_id), for users with an endpoint, in the same statement as the status
 * change: a crash cannot finish a simulation without its delivery, and the sweeper sends one whose
 * job was never enqueued. The body is built when it is sent, from the finished simulation.
 */
function withCompletionDelivery(type: 'simulation.completed' | 'simulation.failed', when = 'true'): string {
  return `, delivery AS (
      INSERT INTO webhook_deliveries (id, user_id, simulation_id, type, payload, next_attempt_at)
      SELECT gen_random_uuid(), done.user_id, done.id, '${type}',
             jsonb_build_object('type', '${type}', 'simulationId', done.id), now()
        FROM done WHERE ${when} AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.user_id = done.user_id)
      ON CONFLICT (simulation_id) DO NOTHING RETURNING id, simulation_id
    )
    SELECT done.id, delivery.id AS "deliveryId" FROM done LEFT JOIN delivery ON delivery.simulation_id = done.id`;
}

/** Records a simulation: `queued`, or `completed` at once (with its delivery) when there is nothing to judge. */
export const createSimulation = defineStatement<
  Pick<
    SimulationRow,
    'id' | 'userId' | 'datasetId' | 'packId' | 'packVersionId' | 'status' | 'total' | 'name'
  > & {
    finishedAt: Date | null;
  },
  FinishedSimulation
>({
  name: 'simulations.create',
  sql: `
    WITH done AS (
      INSERT INTO simulations (id, user_id, dataset_id, pack_id, pack_version_id, status, total, started_at, finished_at, name)
      VALUES (:id, :userId, :datasetId, :packId, :packVersionId, :status, :total, :finishedAt, :finishedAt, :name)
      RETURNING id, user_id, status
    )${withCompletionDelivery('simulation.completed', "done.status = 'completed'")}`,
});

/** queued/running -> failed, with the reason (and its delivery); no row when it had finished already. */
export const failSimulation = defineStatement<{ id: string; reason: string }, FinishedSimulation>({
  name: 'simulations.fail',
  sql: `
    WITH done AS (
      UPDATE simulations SET status = 'failed', reason = :reason, finished_at = now()
       WHERE id = :id AND status IN (${ACTIVE}) RETURNING id, user_id
    )${withCompletionDelivery('simulation.failed')}`,
});

/** Completes those of the simulations whose every ticket has its evaluation (safe to repeat). */
export const completeSimulations = defineStatement<{ ids: string[] }, FinishedSimulation>({
  name: 'simulations.completeIfDone',
  sql: `
    WITH done AS (
      UPDATE simulations s SET status = 'completed', finished_at = now()
       WHERE s.id = ANY(:ids::uuid[]) AND s.status IN (${ACTIVE})
         AND (SELECT count(*) FROM evaluations e WHERE e.user_id = s.user_id AND e.simulation_id = s.id) >= s.total
       RETURNING s.id, s.user_id
    )${withCompletionDelivery('simulation.completed')}`,
});

/** queued/running -> running, keeping the first start time; no row once it has finished. */
export const markSimulationRunning = defineStatement<{ id: string }, { id: string }>({
  name: 'simulations.markRunning',
  sql: `
    UPDATE simulations SET status = 'running', started_at = COALESCE(started_at, now())
     WHERE id = :id AND status IN (${ACTIVE}) RETURNING id`,
});

/** The owner's queued/running simulation -> cancelled; no row once it has finished. */
export const cancelSimulation = defineStatement<{ userId: string; id: string }, { id: string }>({
  name: 'simulations.cancel',
  sql: `
    UPDATE simulations SET status = 'cancelled', finished_at = now()
     WHERE id = :id AND user_id = :userId AND status IN (${ACTIVE}) RETURNING id`,
});

export interface SimulationRow {
  id: string;
  userId: string;
  datasetId: string;
  packId: string;
  packVersionId: string;
  status: SimulationStatus;
  reason: string | null;
  total: number;
  completed: number;
  accept: number;
  review: number;
  reject: number;
  /** USD: the sum of its evaluations' known costs (0 without any). */
  costUsd: number;
  /** Its evaluations whose cost is unknown (a model without a price). */
  unknownCostEvaluations: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  datasetName: string;
  packName: string;
  /** The name its owner gave it; null when none was given. */
  name: string | null;
  /** The number of its pack version (publication order); null while that version is the draft. */
  packVersionNumber: number | null;
  /** Whether its pack version is the pack's live version now. */
  packVersionLive: boolean;
}

/**
 * Progress and cost are counted from the evaluations themselves (at most 250 a simulation, on an index); the
 * version's number is counted among its pack's few versions.
 */
const SELECT = `
  SELECT s.id, s.user_id AS "userId", s.dataset_id AS "datasetId", s.pack_id AS "packId",
         s.pack_version_id AS "packVersionId", s.status, s.reason, s.total, s.created_at AS "createdAt",
         s.started_at AS "startedAt", s.finished_at AS "finishedAt", d.name AS "datasetName",
         p.name AS "packName", s.name, ${versionNumberSql('v')} AS "packVersionNumber",
         p.live_version_id IS NOT DISTINCT FROM s.pack_version_id AS "packVersionLive",
         c.completed, c.accept, c.review, c.reject, c."costUsd", c."unknownCostEvaluations"
    FROM simulations s
    JOIN datasets d ON d.id = s.dataset_id
    JOIN packs p ON p.id = s.pack_id
    JOIN pack_versions v ON v.id = s.pack_version_id
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS completed,
             (count(*) FILTER (WHERE e.status = 'accept'))::int AS accept,
             (count(*) FILTER (WHERE e.status = 'review'))::int AS review,
             (count(*) FILTER (WHERE e.status = 'reject'))::int AS reject,
             COALESCE(sum(e.cost_usd), 0)::float8 AS "costUsd",
             (count(*) FILTER (WHERE e.cost_usd IS NULL))::int AS "unknownCostEvaluations"
        FROM evaluations e WHERE e.user_id = s.user_id AND e.simulation_id = s.id
    ) c`;

export const listSimulations = defineStatement<{ userId: string; limit: number }, SimulationRow>({
  name: 'simulations.list',
  sql: `${SELECT}\n WHERE s.user_id = :userId ORDER BY s.created_at DESC, s.id DESC LIMIT :limit`,
});

export const findSimulation = defineStatement<{ userId: string; id: string }, SimulationRow>({
  name: 'simulations.find',
  sql: `${SELECT}\n WHERE s.user_id = :userId AND s.id = :id`,
});

/** For workers: whatever its owner (jobs carry ids the API already checked). */
export const findSimulationForWorker = defineStatement<{ id: string }, SimulationRow>({
  name: 'simulations.findForWorker',
  sql: `${SELECT}\n WHERE s.id = :id`,
});

/** Still `queued` this long after creation: the start job never reached a worker. */
export const stuckQueuedSimulations = defineStatement<{ olderThanMs: number }, { id: string }>({
  name: 'simulations.stuckQueued',
  sql: `
    SELECT id FROM simulations
     WHERE status = 'queued' AND created_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)
     ORDER BY created_at LIMIT 100`,
});

/** `running` with no evaluation stored for this long, with the tickets still to judge. */
export const stalledRunningSimulations = defineStatement<
  { olderThanMs: number },
  { id: string; ticketIds: string[] }
>({
  name: 'simulations.stalledRunning',
  sql: `
    SELECT s.id, COALESCE(array_agg(t.id ORDER BY t.position) FILTER (WHERE t.id IS NOT NULL), '{}') AS "ticketIds"
      FROM simulations s
      LEFT JOIN dataset_tickets t ON t.dataset_id = s.dataset_id AND t.position < s.total
       AND NOT EXISTS (SELECT 1 FROM evaluations e WHERE e.simulation_id = s.id AND e.dataset_ticket_id = t.id)
     WHERE s.status = 'running'
       AND s.started_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)
       AND NOT EXISTS (
         SELECT 1 FROM evaluations e WHERE e.user_id = s.user_id AND e.simulation_id = s.id
            AND e.created_at > now() - make_interval(secs => :olderThanMs::float8 / 1000))
     GROUP BY s.id ORDER BY s.started_at LIMIT 20`,
});

/** What one ticket job needs to know, read in one round trip. */
export interface TicketJobState {
  status: SimulationStatus;
  userId: string;
  packId: string;
  packVersionId: string;
  /** Null when the ticket is not (or no longer) in the simulation's dataset. */
  ticket: Ticket | null;
  /** Whether this ticket's evaluation is stored already (a retried or raced job). */
  evaluated: boolean;
}

/**
 * The state of several ticket jobs in one round trip (the jobs a worker started in one turn of the
 * event loop): one row per known simulation, `position` being the job's 1-based place in the arrays.
 */
export const ticketJobStates = defineStatement<
  { simulationIds: string[]; ticketIds: string[] },
  TicketJobState & { position: number }
>({
  name: 'simulations.ticketJobStates',
  sql: `
    SELECT q.position::int AS position, s.status, s.user_id AS "userId", s.pack_id AS "packId",
           s.pack_version_id AS "packVersionId", t.ticket,
           EXISTS (SELECT 1 FROM evaluations e WHERE e.simulation_id = s.id AND e.dataset_ticket_id = q.ticket_id) AS evaluated
      FROM unnest(:simulationIds::uuid[], :ticketIds::uuid[]) WITH ORDINALITY AS q(simulation_id, ticket_id, position)
      JOIN simulations s ON s.id = q.simulation_id
      LEFT JOIN dataset_tickets t ON t.id = q.ticket_id AND t.dataset_id = s.dataset_id`,
});

export interface ComparedTicket {
  ticketId: string;
  fromStatus: string;
  toStatus: string;
  /** Null only for a result stored without answers. */
  fromAnswers: Record<string, unknown> | null;
  toAnswers: Record<string, unknown> | null;
  fromEvaluationId: string;
  toEvaluationId: string;
  /** The ticket's subject and external id as stored (redacted), from the first run's evaluation. */
  subject: string | null;
  externalId: string | null;
}

/** Both simulations' evaluations, paired by dataset ticket, in the dataset's order. */
export const pairSimulationEvaluations = defineStatement<
  { userId: string; fromId: string; toId: string },
  ComparedTicket
>({
  name: 'simulations.pairEvaluations',
  sql: `
    SELECT a.dataset_ticket_id AS "ticketId", a.status AS "fromStatus", b.status AS "toStatus",
           a.result -> 'answers' AS "fromAnswers", b.result -> 'answers' AS "toAnswers",
           a.id AS "fromEvaluationId", b.id AS "toEvaluationId",
           a.redacted_ticket ->> 'subject' AS subject, a.redacted_ticket ->> 'externalId' AS "externalId"
      FROM evaluations a JOIN evaluations b ON b.dataset_ticket_id = a.dataset_ticket_id
      LEFT JOIN dataset_tickets t ON t.id = a.dataset_ticket_id
     WHERE a.user_id = :userId AND b.user_id = :userId AND a.simulation_id = :fromId AND b.simulation_id = :toId
     ORDER BY t.position, a.dataset_ticket_id`,
});

/** A judged ticket of the simulation that carries expected answers, with the model's answers. */
export interface ExpectedAnswerRow {
  ticketId: string;
  position: number;
  externalId: string | null;
  subject: string;
  evaluationId: string;
  expected: ExpectedAnswers;
  answers: Record<string, Answer> | null;
}

/** The simulation's evaluations of tickets with expected answers (at most 250, on its index), by position. */
export const simulationExpectedAnswers = defineStatement<
  { userId: string; simulationId: string },
  ExpectedAnswerRow
>({
  name: 'simulations.expectedAnswers',
  sql: `
    SELECT t.id AS "ticketId", t.position, t.ticket ->> 'externalId' AS "externalId",
           t.ticket ->> 'subject' AS subject, e.id AS "evaluationId", t.expected, e.result -> 'answers' AS answers
      FROM evaluations e JOIN dataset_tickets t ON t.id = e.dataset_ticket_id
     WHERE e.user_id = :userId AND e.simulation_id = :simulationId AND t.user_id = :userId
       AND t.expected IS NOT NULL
     ORDER BY t.position`,
});

/** A judged ticket of a simulation, with its evaluation's status and answers. */
export interface SimulationResultRow {
  /** The ticket's 0-based place in the dataset; null once the ticket was deleted from the dataset. */
  position: number | null;
  externalId: string | null;
  subject: string | null;
  status: string;
  evaluationId: string;
  answers: Record<string, Answer> | null;
}

/**
 * The simulation's evaluations (at most the dataset's 250 tickets, on its index), by ticket position;
 * the ticket as judged (redacted), from the evaluation.
 */
export const simulationResults = defineStatement<
  { userId: string; simulationId: string },
  SimulationResultRow
>({
  name: 'simulations.results',
  sql: `
    SELECT t.position, e.redacted_ticket ->> 'externalId' AS "externalId",
           e.redacted_ticket ->> 'subject' AS subject, e.status, e.id AS "evaluationId",
           e.result -> 'answers' AS answers
      FROM evaluations e LEFT JOIN dataset_tickets t ON t.id = e.dataset_ticket_id
     WHERE e.user_id = :userId AND e.simulation_id = :simulationId
     ORDER BY t.position, e.dataset_ticket_id`,
});
