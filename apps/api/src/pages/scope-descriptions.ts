import type { Permission } from '@app/domain';

/** What each scope lets a client do, in the words the consent page shows. */
export const SCOPE_DESCRIPTIONS: Record<Permission, string> = {
  'packs:read': 'list and read your question packs, datasets and webhook settings',
  'packs:write': 'create and change packs and datasets',
  'judgments:run': 'judge tickets (each judgment is stored as an evaluation)',
  'judgments:read': 'read evaluations, the review queue and statistics',
  'simulations:run': 'start and read simulations over your datasets',
  'labels:write': 'label evaluations and delete labels',
};
