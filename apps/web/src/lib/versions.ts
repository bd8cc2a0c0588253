import type { Schemas } from '../api/client';
import { formatDateTime, shortId } from './format';

/** A pack's versions as every feature names them: numbered from the oldest, the live one marked. */

type PackVersion = Schemas['PackVersionDto'];

/**
 * A version's number: the API's (publication order, from 1) when it gives one; otherwise its place
 * in the list, which is newest first with version 1 the oldest.
 */
export function versionNumber(versions: PackVersion[], id: string): number | undefined {
  const index = versions.findIndex((version) => version.id === id);
  if (index < 0) return undefined;
  return versions[index].number ?? versions.length - index;
}

/** What a simulation (or any run) says of its pack version. */
export interface RunVersion {
  packVersionNumber?: number | null;
  packVersionLive?: boolean;
}

/**
 * A pack's live version as a name: "Version 3 (live)" when the pack list says which number the
 * version `versionId` has, else "Live version" and its id's first characters.
 */
export function liveVersionText(
  versionId: string,
  pack?: { liveVersionId: string | null; liveVersionNumber?: number | null },
): string {
  if (pack?.liveVersionId === versionId && pack.liveVersionNumber) {
    return runVersionLabel({ packVersionNumber: pack.liveVersionNumber, packVersionLive: true });
  }
  return `Live version ${shortId(versionId)}`;
}

/** A run's version in short: "Version 3 (live)", "Version 2", or "Draft" for a version never published. */
export function runVersionLabel(run: RunVersion): string {
  const number = run.packVersionNumber;
  if (number === null || number === undefined) return 'Draft';
  return run.packVersionLive ? `Version ${number} (live)` : `Version ${number}`;
}

export type VersionKind = 'draft' | 'live' | 'published';

export function versionKind(version: PackVersion, liveVersionId: string | null): VersionKind {
  if (version.publishedAt === null) return 'draft';
  return version.id === liveVersionId ? 'live' : 'published';
}

/** "Draft", "Version 3 (live)" or "Version 2 (published 5/1/2025, …)". */
export function versionLabel(versions: PackVersion[], version: PackVersion, liveVersionId: string | null) {
  const kind = versionKind(version, liveVersionId);
  if (kind === 'draft') return 'Draft';
  const number = versionNumber(versions, version.id);
  return kind === 'live'
    ? `Version ${number} (live)`
    : `Version ${number} (published ${formatDateTime(version.publishedAt)})`;
}

export interface VersionOption {
  value: string;
  label: string;
}

/** Every version of the pack for a Select, newest first (the draft first). */
export function versionOptions(versions: PackVersion[], liveVersionId: string | null): VersionOption[] {
  return versions.map((version) => ({
    value: version.id,
    label: versionLabel(versions, version, liveVersionId),
  }));
}

/** The version selected at first: the live one, else the draft. */
export function defaultVersionId(versions: PackVersion[], liveVersionId: string | null): string | null {
  if (liveVersionId && versions.some((version) => version.id === liveVersionId)) return liveVersionId;
  return versions.find((version) => version.publishedAt === null)?.id ?? versions[0]?.id ?? null;
}
