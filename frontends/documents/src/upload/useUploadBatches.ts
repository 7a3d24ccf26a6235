import { useSyncExternalStore } from 'react';
import { type UploadBatch, uploadQueue } from './upload-queue.js';

/** The remote's upload batches, oldest first, rendering again whenever one changes. */
export function useUploadBatches(): readonly UploadBatch[] {
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot);
}
