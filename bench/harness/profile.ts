import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileLine {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  /** Sampled time outside `(idle)` and outside module loading, in milliseconds. */
  busyMs: number;
  /** Sampled time loading modules: the boot, left out of the rankings. */
  startupMs: number;
  /** Self time per function. */
  selfByFunction: ProfileLine[];
  /** Self time per package or app folder (`node:` modules by their first path segment). */
  selfByArea: ProfileLine[];
  /** Time with at least one frame of the package (or app folder) on the stack. */
  inclusiveByArea: ProfileLine[];
}

const SPECIAL = new Set(['(idle)', '(program)', '(garbage collector)']);
/** Everything runs under these; ranking them says nothing. */
const UNINFORMATIVE = new Set(['(root)', 'node:internal']);

/** `node_modules/<package>`, `apps/<app>`, `libs/<lib>`, `node:<module>` or a V8 pseudo-frame. */
function areaOf(frame: ProfileNode['callFrame']): string | null {
  if (SPECIAL.has(frame.functionName)) return frame.functionName;
  const url = frame.url;
  if (!url) return null;
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  const own = /dist\/((?:apps|libs)\/[^/]+)/.exec(url);
  if (own) return own[1];
  if (url.startsWith('node:')) return url.split('/')[0];
  return null;
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*?\/(node_modules|dist)\//, '$1/');
}

function ranked(totals: Map<string, number>, busyMs: number, top: number): ProfileLine[] {
  return [...totals]
    .map(([name, ms]) => ({ name, ms, share: ms / busyMs }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top);
}

/** Reads a `--cpu-prof` file and ranks where the sampled time went. */
export function summarizeCpuProfile(file: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const loadingModules = new Map<number, boolean>();
  const isLoadingModules = (id: number): boolean => {
    const known = loadingModules.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const loading =
      byId.get(id)!.callFrame.url.startsWith('node:internal/modules/') ||
      (up !== undefined && isLoadingModules(up));
    loadingModules.set(id, loading);
    return loading;
  };

  const areasOnStack = new Map<number, Set<string>>();
  const areasOf = (id: number): Set<string> => {
    const known = areasOnStack.get(id);
    if (known) return known;
    const up = parent.get(id);
    const areas = new Set(up === undefined ? [] : areasOf(up));
    const area = areaOf(byId.get(id)!.callFrame);
    if (area && !UNINFORMATIVE.has(area)) areas.add(area);
    areasOnStack.set(id, areas);
    return areas;
  };

  const self = new Map<string, number>();
  const selfArea = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busyMs = 0;
  let startupMs = 0;
  profile.samples.forEach((id, index) => {
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    if (isLoadingModules(id)) {
      startupMs += ms;
      return;
    }
    busyMs += ms;
    const name = url ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}` : functionName;
    self.set(name, (self.get(name) ?? 0) + ms);
    const area = areaOf(byId.get(id)!.callFrame) ?? '(native)';
    selfArea.set(area, (selfArea.get(area) ?? 0) + ms);
    for (const area of areasOf(id)) inclusive.set(area, (inclusive.get(area) ?? 0) + ms);
  });
  return {
    busyMs,
    startupMs,
    selfByFunction: ranked(self, busyMs, top),
    selfByArea: ranked(selfArea, busyMs, top),
    inclusiveByArea: ranked(inclusive, busyMs, top),
  };
}

/** A directory for `--cpu-prof` files, and the Node flags that write them there. */
export function profileFlags(): { dir: string; execArgv: string[] } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tjbench-profile-'));
  return { dir, execArgv: ['--cpu-prof', '--cpu-prof-dir', dir] };
}

/** Where each profiled process of `dir` spent its CPU, boot left out (`--profile`). */
export function printProfiles(dir: string, title: string, top = 25): void {
  const lines = (heading: string, entries: ProfileLine[]) => [
    heading,
    ...entries.map(
      (e) => `  ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.ms.toFixed(0).padStart(7)} ms  ${e.name}`,
    ),
  ];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const summary = summarizeCpuProfile(path.join(dir, file), top);
    console.log(
      [
        '',
        `${title} CPU profile ${path.join(dir, file)}: ${summary.busyMs.toFixed(0)} ms busy ` +
          `(plus ${summary.startupMs.toFixed(0)} ms loading modules at boot, left out)`,
        ...lines('Inclusive time by package or app folder (on the stack):', summary.inclusiveByArea),
        ...lines('Self time by package or app folder:', summary.selfByArea),
        ...lines('Self time by function:', summary.selfByFunction),
      ].join('\n'),
    );
  }
}
