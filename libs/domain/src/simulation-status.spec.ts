import { describe, expect, it } from '@jest/globals';
import { initialSimulationState, initialSimulationStatus, isActiveSimulation } from './simulation-status.js';

describe('simulation states', () => {
  it('keeps queued and running active, and every other state final', () => {
    expect(isActiveSimulation('queued')).toBe(true);
    expect(isActiveSimulation('running')).toBe(true);
    for (const status of ['completed', 'failed', 'cancelled'] as const)
      expect(isActiveSimulation(status)).toBe(false);
  });

  it('completes an empty dataset at once and queues any other', () => {
    expect(initialSimulationStatus(0)).toBe('completed');
    expect(initialSimulationStatus(1)).toBe('queued');
    const now = new Date();
    expect(initialSimulationState(0, now)).toEqual({ status: 'completed', finishedAt: now });
    expect(initialSimulationState(3, now)).toEqual({ status: 'queued', finishedAt: null });
  });
});
