import { describe, expect, it } from '@jest/globals';
import {
  answerChangeText,
  answeredQuestions,
  compareOptions,
  comparisonExportUrl,
  durationText,
  formatDuration,
  progressOf,
  questionName,
  remainingText,
  simulationExportUrl,
  simulationLabel,
  simulationTitle,
  summarizeComparison,
  ticketLabel,
} from './simulations';
import { SAMPLE_DOCUMENT } from '../../lib/pack-document.fixtures';
import { isActive } from '../../lib/simulation-status';

const item = (id: string, datasetId: string, status: 'completed' | 'running' = 'completed') => ({
  id,
  datasetId,
  packId: 'p',
  packVersionId: 'v',
  status,
  createdAt: '2026-11-01T10:00:00.000Z',
  datasetName: `dataset ${datasetId}`,
  packName: 'triage',
  name: null as string | null,
  packVersionNumber: 2 as number | null,
  packVersionLive: true,
});

describe('progress', () => {
  it('is a whole percent and an "N of M tickets" label', () => {
    expect(progressOf({ completed: 1, total: 3 })).toEqual({ percent: 33, label: '1 of 3 tickets' });
    expect(progressOf({ completed: 199, total: 200 }).percent).toBe(99);
    expect(progressOf({ completed: 1, total: 1 })).toEqual({ percent: 100, label: '1 of 1 ticket' });
    expect(progressOf({ completed: 0, total: 0 })).toEqual({ percent: 100, label: '0 of 0 tickets' });
  });

  it('knows which statuses are still moving', () => {
    expect(
      ['queued', 'running', 'completed', 'failed', 'cancelled'].filter((s) => isActive(s as never)),
    ).toEqual(['queued', 'running']);
  });
});

describe('time', () => {
  it('formats durations', () => {
    expect(formatDuration(44_600)).toBe('45 s');
    expect(formatDuration(150_000)).toBe('3 min');
    expect(formatDuration(3_900_000)).toBe('1 h 5 min');
    expect(formatDuration(7_200_000)).toBe('2 h');
    expect(formatDuration(-5)).toBe('0 s');
  });

  it('estimates the time left from the pace so far', () => {
    const startedAt = '2026-11-01T10:00:00.000Z';
    const now = Date.parse(startedAt) + 30_000;
    expect(remainingText({ status: 'running', startedAt, completed: 10, total: 30 }, now)).toBe(
      'about 1 min left',
    );
    expect(remainingText({ status: 'running', startedAt, completed: 0, total: 30 }, now)).toBeNull();
    expect(remainingText({ status: 'queued', startedAt: null, completed: 0, total: 30 }, now)).toBeNull();
    expect(durationText({ startedAt, finishedAt: '2026-11-01T10:00:12.000Z' })).toBe('12 s');
    expect(durationText({ startedAt, finishedAt: null })).toBeNull();
  });
});

describe('compareOptions', () => {
  it('offers completed simulations, and for B only others over the same dataset', () => {
    const items = [item('a', 'd1'), item('b', 'd1'), item('c', 'd2'), item('r', 'd1', 'running')];
    const none = compareOptions(items, null);
    expect(none.a.map((o) => o.value)).toEqual(['a', 'b', 'c']);
    expect(none.b.map((o) => o.value)).toEqual(['a', 'b', 'c']);
    expect(compareOptions(items, 'a').b.map((o) => o.value)).toEqual(['b']);
    expect(none.a[0].label).toMatch(/^triage \(Version 2 \(live\)\) on dataset d1 · /);
  });
});

describe('names of simulations', () => {
  it('calls a simulation by its name, else by its pack and dataset, and tells a draft run from a live one', () => {
    const live = item('a', 'd1');
    const draft = {
      ...item('b', 'd1'),
      name: 'Stricter refunds',
      packVersionNumber: null,
      packVersionLive: false,
    };
    expect(simulationTitle(live)).toBe('triage on dataset d1');
    expect(simulationTitle(draft)).toBe('Stricter refunds');
    expect(simulationLabel(live)).toMatch(/^triage \(Version 2 \(live\)\) on dataset d1 · /);
    expect(simulationLabel(draft)).toMatch(/^Stricter refunds · triage \(Draft\) on dataset d1 · /);
  });
});

describe('ticket-level results', () => {
  it("lists the answered questions in the pack's order, then unknown ones by id", () => {
    const items = [{ answers: { zeta: {}, complexity: {} } }, { answers: { department: {} } }, {}];
    expect(answeredQuestions(items, SAMPLE_DOCUMENT)).toEqual(['department', 'complexity', 'zeta']);
    expect(answeredQuestions(items)).toEqual(['complexity', 'department', 'zeta']);
    expect(questionName(SAMPLE_DOCUMENT, 'department')).toBe('Department');
    expect(questionName(undefined, 'zeta')).toBe('zeta');
  });

  it('names a ticket by its subject and external id, and a changed answer as before → after', () => {
    expect(ticketLabel({ subject: 'Charged twice', externalId: 'ZD-1' })).toBe('Charged twice (ZD-1)');
    expect(ticketLabel({ subject: 'Charged twice', externalId: null })).toBe('Charged twice');
    expect(
      answerChangeText({
        questionId: 'department',
        from: { type: 'choice', choice: 'billing' },
        to: { type: 'choice', choice: 'technical' },
      }),
    ).toBe('billing → technical');
    expect(
      answerChangeText({ questionId: 'angry', from: null, to: { type: 'boolean', probability: 0.9 } }),
    ).toBe('No answer → True');
  });
});

describe('summarizeComparison', () => {
  it('puts the most changed questions and status moves first, leaving out unchanged pairs', () => {
    const summary = summarizeComparison({
      from: 'a',
      to: 'b',
      tickets: 8,
      questions: [
        { questionId: 'tone', changed: 1 },
        { questionId: 'department', changed: 4 },
        { questionId: 'angry', changed: 1 },
      ],
      statusChanges: [
        { from: 'accept', to: 'accept', count: 5 },
        { from: 'accept', to: 'review', count: 1 },
        { from: 'review', to: 'reject', count: 2 },
        { from: 'reject', to: 'accept', count: 0 },
      ],
    });
    expect(summary.questions).toEqual([
      { questionId: 'department', changed: 4, percent: 50 },
      { questionId: 'angry', changed: 1, percent: 13 },
      { questionId: 'tone', changed: 1, percent: 13 },
    ]);
    expect(summary.moves).toEqual([
      { from: 'review', to: 'reject', count: 2 },
      { from: 'accept', to: 'review', count: 1 },
    ]);
    expect(summary.statusChanged).toBe(3);
    expect(summary.tickets).toBe(8);
  });
});

describe('export links', () => {
  it('name the CSV routes of a run and of a comparison', () => {
    expect(simulationExportUrl('s-1')).toBe('/api/simulations/s-1/export');
    expect(comparisonExportUrl('s-1', 's/2')).toBe('/api/simulations/s-1/compare/s%2F2/export');
  });
});
