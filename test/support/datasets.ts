// The dataset fixture lives in a file free of Jest, so the benchmarks share it.
export { uploadDataset as createDataset } from './dataset-upload.js';
