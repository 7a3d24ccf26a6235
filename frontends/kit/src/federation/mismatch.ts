/** A shared singleton whose loaded version differs from what a build required. */
export interface SharedMismatch {
  pkgName: string;
  required: string;
  loaded: string;
  from: string;
}

/** The window event the federation runtime plugin dispatches for each mismatch. */
export const SHARED_MISMATCH_EVENT_NAME = 'portico:shared-mismatch';
