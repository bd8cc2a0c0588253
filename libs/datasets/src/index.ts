export { DatasetsModule } from './datasets.module.js';
export { DatasetService, DATASET_TICKETS_PAGE_SIZE } from './dataset.service.js';
export {
  MAX_DATASET_TICKETS,
  toDatasetView,
  toDatasetTicketView,
  type DatasetView,
  type DatasetTicketView,
  type DatasetTicketPage,
  type UploadResult,
  type UploadedTicket,
  type DatasetTemplate,
} from './dataset.views.js';
