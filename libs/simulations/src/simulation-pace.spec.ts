import { describe, expect, it } from '@jest/globals';
import { simulationPace } from './simulation-pace.js';

const startedAt = new Date('2026-11-25T10:00:00.000Z');
const now = new Date('2026-11-25T10:00:10.000Z');

describe('simulationPace', () => {
  it('gives the rate so far and the finish it points to while running', () => {
    expect(
      simulationPace({ status: 'running', total: 100, completed: 25, startedAt, finishedAt: null }, now),
    ).toEqual({
      ratePerSecond: 2.5,
      estimatedFinishAt: '2026-11-25T10:00:40.000Z',
    });
  });

  it('gives no figures before the first ticket, and no estimate once finished', () => {
    expect(
      simulationPace({ status: 'queued', total: 10, completed: 0, startedAt: null, finishedAt: null }, now),
    ).toEqual({
      ratePerSecond: null,
      estimatedFinishAt: null,
    });
    const finishedAt = new Date('2026-11-25T10:00:04.000Z');
    expect(
      simulationPace({ status: 'completed', total: 10, completed: 10, startedAt, finishedAt }, now),
    ).toEqual({
      ratePerSecond: 2.5,
      estimatedFinishAt: null,
    });
  });
});
