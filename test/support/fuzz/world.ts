import fc from 'fast-check';
import { anyIndex, type Operation } from '../openapi-arbitraries.js';

export type Kind =
  | 'pack'
  | 'version'
  | 'evaluation'
  | 'label'
  | 'dataset'
  | 'ticket'
  | 'simulation'
  | 'shadowRun'
  | 'key'
  | 'endpoint'
  | 'delivery'
  | 'alert';

/** The owner's world: one of each record, plus spares that destructive routes may consume. */
export interface World {
  email: string;
  key: string;
  cookie: string;
  userId: string;
  /** `own` ids serve ordinary routes; `spare` ids (when any) serve DELETE and rotate, so the fuzz keeps its records. */
  ids: Record<Kind, { own: string[]; spare: string[] }>;
  /** A real `nextCursor`, for tampering. */
  cursor: string;
  /** Every secret, cookie and email seen: none may appear in a log line. */
  secrets: Set<string>;
  emails: Set<string>;
}

export function kindOfPathParam(path: string, param: string): Kind | undefined {
  const byName: Record<string, Kind> = {
    packId: 'pack',
    datasetId: 'dataset',
    ticketId: 'ticket',
    labelId: 'label',
    otherId: 'simulation',
  };
  if (byName[param]) return byName[param];
  const byCollection: [string, Kind][] = [
    ['/app/keys/', 'key'],
    ['/api/evaluations/', 'evaluation'],
    ['/api/simulations/', 'simulation'],
    ['/api/shadow-runs/', 'shadowRun'],
    ['/api/webhook-endpoints/', 'endpoint'],
    ['/api/webhook-deliveries/', 'delivery'],
    ['/api/alerts/', 'alert'],
  ];
  return byCollection.find(([prefix]) => path.startsWith(prefix))?.[1];
}

/** Query parameters and body properties that name the caller's records. */
export const ID_FIELDS: Record<string, Kind> = {
  packId: 'pack',
  datasetId: 'dataset',
  simulationId: 'simulation',
  shadowRunId: 'shadowRun',
  packVersionId: 'version',
  versionId: 'version',
  from: 'version',
  to: 'version',
};

export const isDestructive = (op: Operation) => op.method === 'DELETE' || op.path.endsWith('/rotate');

/** Mostly an id of the caller's own record (read when generated: pools change), sometimes a stranger's. */
export function ownId(world: World, kind: Kind, destructive: boolean): fc.Arbitrary<string> {
  const pick = anyIndex.map((i) => {
    const pool = world.ids[kind];
    const ids = destructive && pool.spare.length ? pool.spare : pool.own;
    return ids[i % ids.length];
  });
  return fc.oneof({ arbitrary: pick, weight: 9 }, { arbitrary: fc.uuid({ version: 4 }), weight: 1 });
}
