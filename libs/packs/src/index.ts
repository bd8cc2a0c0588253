export { PacksModule } from './packs.module.js';
export { PackService, compareDocuments, type PackComparison } from './pack.service.js';
export {
  toPackView,
  type PackView,
  type PackListItemView,
  type PackVersionView,
  type PackVersionDocumentView,
} from './pack.views.js';
