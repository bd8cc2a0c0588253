import type { Schemas } from '../../api/client';
import { shortId } from '../../lib/format';
import { runVersionLabel } from '../../lib/versions';

type RecentRun = Schemas['RecentRunDto'];

/** A recent run as the dashboard names it: its name, else its pack and dataset, else its short id. */
export function recentRunTitle(run: RecentRun): string {
  if (run.name) return run.name;
  if (run.packName && run.datasetName) return `${run.packName} on ${run.datasetName}`;
  return `Simulation ${shortId(run.id)}`;
}

/**
 * The line under it: the version it ran ("Version 3 (live)", "Draft"), after the pack and dataset
 * when the title is the run's own name; null when the API said nothing of its version.
 */
export function recentRunDetail(run: RecentRun): string | null {
  if (run.packVersionNumber === undefined) return null;
  const version = runVersionLabel(run);
  return run.name && run.packName && run.datasetName
    ? `${run.packName} (${version}) on ${run.datasetName}`
    : version;
}
