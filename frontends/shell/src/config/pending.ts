import { loadRuntimeConfig } from './runtime-config.js';

/** /runtime-config.json, requested as the page starts, while the shared modules load. */
export const pendingRuntimeConfig = loadRuntimeConfig();
