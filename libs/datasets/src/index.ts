export { DatasetsModule } from './datasets.module.js';
export { DatasetService, MAX_DATASET_TICKETS, DATASET_TICKETS_PAGE_SIZE } from './dataset.service.js';
export {
  toDatasetView,
  toDatasetTicketView,
  type DatasetView,
  type DatasetTicketView,
  type DatasetTicketPage,
  type UploadResult,
} from './dataset.views.js';
