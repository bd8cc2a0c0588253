import { describe, expect, it, jest } from '@jest/globals';
import {
  ConflictError,
  fitCalibrationMap,
  NotFoundError,
  questionFingerprint,
  type Answer,
  type PackDocument,
  type Question,
} from '@app/domain';
import type {
  CalibrationFitRow,
  CalibrationMapRepository,
  PackRepository,
  VersionQuestion,
} from '@app/persistence';
import { CalibrationFitService } from './calibration-fit.service.js';

type CalibrationLabelRow = Awaited<ReturnType<CalibrationMapRepository['labels']>>[number];
type RefitCandidateRow = Awaited<ReturnType<CalibrationMapRepository['refitCandidates']>>[number];

const PACK = '11111111-1111-4111-8111-111111111111';

const department: Question = {
  type: 'choice',
  id: 'department',
  name: 'Department',
  instructions: 'Which team?',
  criteria: { options: [{ value: 'billing' }, { value: 'technical' }] },
  review: { minSelectedProbability: 0.6 },
};
const abusive: Question = {
  type: 'boolean',
  id: 'abusive',
  name: 'Abusive',
  instructions: 'Insults?',
  criteria: {},
  review: { minSelectedProbability: 0.6 },
};
const live: PackDocument = {
  questions: [{ ...department, review: { minSelectedProbability: 0.8, useCalibrated: true } }, abusive],
};

/** v1: the same department, an older abusive; v2: a reworded department; v3: the live version. */
const versions = [
  { id: 'v1', document: { questions: [department, { ...abusive, instructions: 'Rude?' }] } },
  { id: 'v2', document: { questions: [{ ...department, instructions: 'Which department?' }, abusive] } },
  { id: 'v3', document: live },
];

const choice = (p: number): Answer => ({
  type: 'choice',
  choice: 'billing',
  probabilities: { billing: p, technical: 1 - p },
});

interface Setup {
  labels?: CalibrationLabelRow[];
  candidates?: RefitCandidateRow[];
  /** The pack as PackRepository.find gives it. */
  pack?: { id: string; liveVersionId: string | null; liveDocument: PackDocument | null };
}

function setup({
  labels = [],
  candidates = [],
  pack = { id: PACK, liveVersionId: 'v3', liveDocument: live },
}: Setup = {}) {
  const saved: Array<{ packId: string; fits: CalibrationFitRow[]; fittedAt: Date }> = [];
  const asked: VersionQuestion[][] = [];
  const maps = {
    publishedVersions: jest.fn(() => Promise.resolve(versions)),
    labels: jest.fn((_: string, __: string, questions: VersionQuestion[]) => {
      asked.push(questions);
      return Promise.resolve(labels);
    }),
    saveFits: jest.fn((_: string, packId: string, fits: CalibrationFitRow[], fittedAt: Date) => {
      saved.push({ packId, fits, fittedAt });
      return Promise.resolve();
    }),
    refitCandidates: jest.fn(() => Promise.resolve(candidates)),
  };
  const find = jest.fn((_: string, packId: string) => Promise.resolve(packId === PACK ? pack : null));
  const service = new CalibrationFitService(
    { find } as unknown as PackRepository,
    maps as unknown as CalibrationMapRepository,
  );
  return { service, saved, asked, maps, find };
}

describe('CalibrationFitService.fit', () => {
  it('reads the labels of every published version asking each live question in the same words', async () => {
    const { service, asked } = setup();
    await service.fit('u', PACK);
    // department: v1 and v3 (v2 rewords it); abusive: v2 and v3 (v1 asks it otherwise).
    expect(asked).toEqual([
      [
        { versionId: 'v1', questionId: 'department' },
        { versionId: 'v2', questionId: 'abusive' },
        { versionId: 'v3', questionId: 'department' },
        { versionId: 'v3', questionId: 'abusive' },
      ],
    ]);
  });

  it('fits a question from 10 labels, weighted 1/π on audit-selected evaluations, and none below', async () => {
    // department: 10 labels; abusive: 9, one short of a map.
    const departmentLabels: CalibrationLabelRow[] = Array.from({ length: 10 }, (_, i) => ({
      questionId: 'department',
      judgeAnswer: choice(0.55 + 0.04 * i),
      agreed: i % 3 !== 0,
      auditSelected: i < 4 ? i % 2 === 0 : null,
      auditProbability: i < 4 ? 0.25 : null,
    }));
    const abusiveLabels: CalibrationLabelRow[] = Array.from({ length: 9 }, () => ({
      questionId: 'abusive',
      judgeAnswer: { type: 'boolean', probability: 0.9 },
      agreed: true,
      auditSelected: null,
      auditProbability: null,
    }));
    const { service, saved } = setup({ labels: [...departmentLabels, ...abusiveLabels] });
    const view = await service.fit('u', PACK);

    // Labels 0 and 2 are audit-selected with π = 0.25 (weight 4); 1 and 3 were drawn but not selected.
    const expected = fitCalibrationMap(
      departmentLabels.map((label, i) => ({
        selectedProbability: 0.55 + 0.04 * i,
        agreed: i % 3 !== 0,
        inclusionProbability: i === 0 || i === 2 ? 0.25 : 1,
      })),
    )!;
    expect(saved).toHaveLength(1);
    expect(saved[0].fits).toEqual([
      {
        questionId: 'department',
        fingerprint: questionFingerprint(department),
        method: 'platt',
        labels: 10,
        points: expected.points,
      },
      {
        questionId: 'abusive',
        fingerprint: questionFingerprint(abusive),
        method: null,
        labels: 9,
        points: null,
      },
    ]);
    const fittedAt = saved[0].fittedAt.toISOString();
    expect(view).toEqual({
      packId: PACK,
      versionId: 'v3',
      fittedAt,
      minLabels: 10,
      questions: [
        { questionId: 'department', labels: 10, map: { method: 'platt', labels: 10, fittedAt } },
        { questionId: 'abusive', labels: 9, map: null },
      ],
    });
  });

  it('answers not found for an unknown pack and conflict for one never published', async () => {
    await expect(setup().service.fit('u', '22222222-2222-4222-8222-222222222222')).rejects.toThrow(
      NotFoundError,
    );
    const draftOnly = setup({ pack: { id: PACK, liveVersionId: null, liveDocument: null } });
    await expect(draftOnly.service.fit('u', PACK)).rejects.toThrow(ConflictError);
    expect(draftOnly.saved).toEqual([]);
  });
});

describe('CalibrationFitService.refitDue', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  const hourAgo = new Date(now.getTime() - 3_600_000);

  it('refits the packs that are due and skips a pack gone meanwhile', async () => {
    const gone = '33333333-3333-4333-8333-333333333333';
    const { service, saved, find } = setup({
      candidates: [
        { userId: 'u', packId: PACK, newLabels: 20, lastFittedAt: hourAgo },
        { userId: 'u', packId: gone, newLabels: 25, lastFittedAt: null },
        { userId: 'u', packId: '44444444-4444-4444-8444-444444444444', newLabels: 19, lastFittedAt: hourAgo },
      ],
    });
    expect(await service.refitDue(now)).toBe(1);
    expect(saved.map((fit) => fit.packId)).toEqual([PACK]);
    // The third was not due (19 labels, fitted an hour ago): its pack was not even read.
    expect(find.mock.calls.map(([, packId]) => packId)).toEqual([PACK, gone]);
  });
});
