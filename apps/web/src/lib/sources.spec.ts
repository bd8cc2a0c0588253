import { describe, expect, it } from '@jest/globals';
import {
  includesExperiments,
  isExperiment,
  LIVE_SOURCES,
  sourceFilter,
  sourceLabel,
  withExperiments,
} from './sources';

describe('sources', () => {
  it('shows live traffic unless the switch asks for experiments', () => {
    expect(includesExperiments(new URLSearchParams(''))).toBe(false);
    expect(includesExperiments(new URLSearchParams('experiments=true'))).toBe(true);
    expect(includesExperiments(new URLSearchParams('experiments=yes'))).toBe(false);
    expect(sourceFilter(false)).toEqual(['api', 'webhook', 'mcp']);
    expect(sourceFilter(true)).toBeUndefined();
  });

  it('keeps the switch in the search parameters, leaving the default out', () => {
    const params = new URLSearchParams('labeled=false');
    const on = withExperiments(params, true);
    expect(on.toString()).toBe('labeled=false&experiments=true');
    expect(withExperiments(on, false).toString()).toBe('labeled=false');
    expect(params.toString()).toBe('labeled=false');
  });

  it('names sources and tells experiments from live traffic', () => {
    expect(sourceLabel('mcp')).toBe('MCP');
    expect(sourceLabel('simulation')).toBe('Simulation');
    expect(LIVE_SOURCES.map(isExperiment)).toEqual([false, false, false]);
    expect(isExperiment('playground')).toBe(true);
    expect(isExperiment('simulation')).toBe(true);
  });
});
