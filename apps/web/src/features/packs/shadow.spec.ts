import { describe, expect, it } from '@jest/globals';
import type { Schemas } from '../../api/client';
import { estimateText, formatLatency } from '../../lib/format';
import {
  changedStatuses,
  flipMatrix,
  mostChangedQuestions,
  publishSummaryLines,
  runMatchingDraft,
  runScopeText,
  runStatusText,
  startBody,
} from './shadow';

type Report = Schemas['ShadowReportDto'];

const usage = {
  inputTokens: 0,
  outputTokens: 0,
  cost: { costUsd: 0, unknownCostEvaluations: 0 },
  meanLatencyMs: null,
  p95LatencyMs: null,
};

/** Ten judged tickets: department flips billing → technical on 4, urgent is new, abusive flips on 1. */
function report(overrides: Partial<Report> = {}): Report {
  return {
    sampled: 12,
    judged: 10,
    failed: 1,
    pending: 2,
    statusChanges: [
      { from: 'accept', to: 'accept', count: 5 },
      { from: 'accept', to: 'review', count: 3 },
      { from: 'reject', to: 'accept', count: 2 },
    ],
    questions: [
      {
        questionId: 'abusive',
        compared: 10,
        changed: 1,
        flips: [
          { from: 'false', to: 'false', count: 9, evaluationIds: [] },
          { from: 'true', to: 'false', count: 1, evaluationIds: ['e9'] },
        ],
      },
      {
        questionId: 'department',
        compared: 10,
        changed: 4,
        flips: [
          { from: 'billing', to: 'technical', count: 4, evaluationIds: ['e1', 'e2', 'e3', 'e4'] },
          { from: 'billing', to: 'billing', count: 6, evaluationIds: [] },
        ],
      },
      {
        questionId: 'urgent',
        compared: 10,
        changed: 10,
        flips: [
          { from: '(none)', to: 'true', count: 7, evaluationIds: [] },
          { from: '(none)', to: 'false', count: 3, evaluationIds: [] },
        ],
      },
      { questionId: 'complexity', compared: 10, changed: 0, flips: [] },
    ],
    reviewShare: { live: 0.1, shadow: 0.35 },
    agreement: [
      {
        questionId: 'department',
        labels: 4,
        live: { estimate: 0, low: 0, high: 0.489891, labels: 4 },
        shadow: { estimate: 1, low: 0.510109, high: 1, labels: 4 },
      },
    ],
    usage: { live: usage, shadow: usage },
    ...overrides,
  };
}

describe('startBody', () => {
  it('sends the percent as a rate, the draft as no versionId, and no cap when left empty', () => {
    expect(startBody({ versionId: null, percent: 10, maxJudgments: '' })).toEqual({
      ok: true,
      body: { sampleRate: 0.1 },
    });
  });

  it('sends a published version and a cap', () => {
    expect(startBody({ versionId: 'v1', percent: 100, maxJudgments: 50 })).toEqual({
      ok: true,
      body: { sampleRate: 1, versionId: 'v1', maxJudgments: 50 },
    });
    // 12.5% is 0.125, not 0.12500000000000003.
    expect(startBody({ versionId: null, percent: 12.5, maxJudgments: '' })).toEqual({
      ok: true,
      body: { sampleRate: 0.125 },
    });
  });

  it('converts only: a rate or cap the server refuses is sent, for its issue to show at the field', () => {
    expect(startBody({ versionId: null, percent: 0, maxJudgments: 0 })).toEqual({
      ok: true,
      body: { sampleRate: 0, maxJudgments: 0 },
    });
    expect(startBody({ versionId: null, percent: 150, maxJudgments: 2.5 })).toEqual({
      ok: true,
      body: { sampleRate: 1.5, maxJudgments: 2.5 },
    });
  });

  it('stops only what is not a number, which no request can carry (never NaN)', () => {
    for (const percent of ['', 'abc']) {
      expect(startBody({ versionId: null, percent, maxJudgments: '' })).toEqual({
        ok: false,
        field: 'percent',
        error: 'Enter a number',
      });
    }
    expect(startBody({ versionId: null, percent: 10, maxJudgments: 'abc' })).toEqual({
      ok: false,
      field: 'maxJudgments',
      error: 'Enter a number',
    });
  });
});

describe('run status', () => {
  it('says the status and why it stopped, in words', () => {
    expect(runStatusText({ status: 'active', stopReason: null })).toBe('Active');
    expect(runStatusText({ status: 'stopped', stopReason: 'requested' })).toBe('Stopped on request');
    expect(runStatusText({ status: 'stopped', stopReason: 'max_judgments' })).toBe('Stopped at its cap');
    expect(runStatusText({ status: 'stopped', stopReason: 'pack_deleted' })).toBe(
      'Stopped because the pack was deleted',
    );
  });

  it('says the rate and the cap', () => {
    expect(runScopeText({ sampleRate: 0.1, maxJudgments: null })).toBe('10% of live traffic, no cap');
    expect(runScopeText({ sampleRate: 0.025, maxJudgments: 1500 })).toBe(
      '2.5% of live traffic, at most 1,500 judgments',
    );
    expect(runScopeText({ sampleRate: 1, maxJudgments: 1 })).toBe('100% of live traffic, at most 1 judgment');
  });
});

describe('flipMatrix', () => {
  it('has the live answers as rows and the shadow ones as columns, each in answer order', () => {
    const [abusive, department, urgent] = report().questions;
    const matrix = flipMatrix(department);
    expect(matrix.rows).toEqual(['billing']);
    expect(matrix.columns).toEqual(['billing', 'technical']);
    expect(matrix.cell('billing', 'technical')?.count).toBe(4);
    expect(matrix.cell('billing', 'billing')?.count).toBe(6);
    expect(matrix.cell('technical', 'billing')).toBeUndefined();
    // true before false, (none) last.
    expect(flipMatrix(abusive)).toMatchObject({ rows: ['true', 'false'], columns: ['false'] });
    expect(flipMatrix(urgent)).toMatchObject({ rows: ['(none)'], columns: ['true', 'false'] });
  });

  it('orders scores by value, not as text', () => {
    const flips = ['10', '2', '(none)', '1'].map((from) => ({ from, to: '2', count: 1, evaluationIds: [] }));
    expect(flipMatrix({ flips }).rows).toEqual(['1', '2', '10', '(none)']);
  });
});

describe('report figures', () => {
  it('lists the questions with the most changed answers, none unchanged', () => {
    expect(mostChangedQuestions(report()).map((q) => q.questionId)).toEqual([
      'urgent',
      'department',
      'abusive',
    ]);
    expect(mostChangedQuestions(report(), 1).map((q) => q.questionId)).toEqual(['urgent']);
  });

  it('keeps only the statuses that change, most first', () => {
    expect(changedStatuses(report())).toEqual([
      { from: 'accept', to: 'review', count: 3 },
      { from: 'reject', to: 'accept', count: 2 },
    ]);
  });

  it('writes an agreement with its interval through the shared estimate text, and none without labels', () => {
    expect(estimateText({ estimate: 1, low: 0.510109, high: 1, labels: 4 })).toBe('100% (51–100%)');
    expect(estimateText({ estimate: null, low: null, high: null, labels: 0 })).toBeNull();
  });

  it('writes a latency through the shared latency text, a dash without one', () => {
    expect(formatLatency(1234.6)).toBe('1.2 s');
    expect(formatLatency(812.4)).toBe('812 ms');
    expect(formatLatency(null)).toBe('—');
  });
});

describe('the publish dialog', () => {
  it('reports on the newest run that holds the draft', () => {
    const runs = [
      { id: 'c', matchesDraft: false },
      { id: 'b', matchesDraft: true },
      { id: 'a', matchesDraft: true },
    ];
    expect(runMatchingDraft(runs)?.id).toBe('b');
    expect(runMatchingDraft([{ id: 'a', matchesDraft: false }])).toBeUndefined();
  });

  it('sums the report up in a few lines', () => {
    expect(publishSummaryLines(report())).toEqual([
      '10 live tickets judged again by the draft, 1 of them failed.',
      'Status changes: accept → review 3, reject → accept 2.',
      'Sent to review: 10% live → 35% with the draft.',
      'Most changed answers: urgent (10 of 10), department (4 of 10), abusive (1 of 10).',
      'Agreement with reviewers on department (4 labels): live 0%, draft 100%.',
    ]);
  });

  it('says when nothing changed, and nothing more before the first judgment', () => {
    const calm = report({
      failed: 0,
      statusChanges: [{ from: 'accept', to: 'accept', count: 10 }],
      questions: [{ questionId: 'complexity', compared: 10, changed: 0, flips: [] }],
      agreement: [],
    });
    expect(publishSummaryLines(calm)).toEqual([
      '10 live tickets judged again by the draft.',
      'No status would change.',
      'Sent to review: 10% live → 35% with the draft.',
      'No answer changed.',
    ]);
    expect(publishSummaryLines(report({ judged: 0, failed: 0 }))).toEqual([
      '0 live tickets judged again by the draft.',
    ]);
  });
});
