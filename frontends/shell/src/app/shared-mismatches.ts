import { type ReportError, SHARED_MISMATCH_EVENT_NAME, type SharedMismatch } from '@portico/kit';

/**
 * The mismatches the kit's federation runtime plugin found so far. It keeps them on the page, as remotes
 * may load before the signed-in shell listens (in the background of the sign-in page).
 */
export function earlierSharedMismatches(): SharedMismatch[] {
  return (window as { __PORTICO_SHARED_MISMATCHES__?: SharedMismatch[] }).__PORTICO_SHARED_MISMATCHES__ ?? [];
}

/** Calls `handle` with each mismatch found from now on; returns the function that stops listening. */
export function onSharedMismatch(handle: (mismatch: SharedMismatch) => void): () => void {
  const listener = (event: Event) => handle((event as CustomEvent<SharedMismatch>).detail);
  window.addEventListener(SHARED_MISMATCH_EVENT_NAME, listener);
  return () => window.removeEventListener(SHARED_MISMATCH_EVENT_NAME, listener);
}

/**
 * Sends each mismatch, those found earlier and those to come, to the error reports once: the remote it
 * names runs on another version of a singleton than it was built against, and must be rebuilt. Returns
 * the function that stops listening.
 */
export function reportSharedMismatches(reportError: ReportError): () => void {
  const reported = new Set<string>();
  const report = (mismatch: SharedMismatch) => {
    const { pkgName, required, loaded, from } = mismatch;
    const key = [pkgName, from, required, loaded].join('\n');
    if (reported.has(key)) return;
    reported.add(key);
    void reportError({
      kind: 'remote',
      area: from,
      error: `Shared singleton ${pkgName}: ${from} requires ${required} but ${loaded} is loaded`,
    });
  };
  for (const mismatch of earlierSharedMismatches()) report(mismatch);
  return onSharedMismatch(report);
}
