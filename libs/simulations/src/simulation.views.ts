import type { CostSum, ExpectedDisagreement, QuestionAgreement } from '@app/domain';
import type { SimulationRow } from '@app/persistence';
import { simulationPace, type Pace } from './simulation-pace.js';

export interface SimulationListItemView {
  id: string;
  datasetId: string;
  packId: string;
  packVersionId: string;
  status: string;
  createdAt: string;
  datasetName: string;
  packName: string;
  /** The name its owner gave it; null when none was given. */
  name: string | null;
  /** Its pack version's number (publication order); null while that version is the draft. */
  packVersionNumber: number | null;
  /** Whether its pack version is the pack's live version now. */
  packVersionLive: boolean;
}

export interface SimulationView extends SimulationListItemView, Pace {
  total: number;
  completed: number;
  byStatus: { accept: number; review: number; reject: number };
  startedAt: string | null;
  finishedAt: string | null;
  /** Why a simulation failed; null otherwise. */
  reason: string | null;
  /** What its evaluations so far cost (docs/cost.md). */
  cost: CostSum;
  /** Per question of its version, agreement with the dataset's expected answers; absent without any. */
  expectedAgreement?: QuestionAgreement[];
}

export interface ExpectedDisagreementPage {
  items: ExpectedDisagreement[];
  total: number;
}

export function toSimulationListItemView(row: SimulationRow): SimulationListItemView {
  return {
    id: row.id,
    datasetId: row.datasetId,
    packId: row.packId,
    packVersionId: row.packVersionId,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    datasetName: row.datasetName,
    packName: row.packName,
    name: row.name,
    packVersionNumber: row.packVersionNumber,
    packVersionLive: row.packVersionLive,
  };
}

export function toSimulationView(row: SimulationRow, now = new Date()): SimulationView {
  return {
    ...simulationPace(row, now),
    ...toSimulationListItemView(row),
    total: row.total,
    completed: row.completed,
    byStatus: { accept: row.accept, review: row.review, reject: row.reject },
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    reason: row.reason,
    cost: { costUsd: row.costUsd, unknownCostEvaluations: row.unknownCostEvaluations },
  };
}
