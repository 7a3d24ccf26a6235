/**
 * How far long work on the server has got (a zip being built): the browser names the work with an id
 * it sends in the request, the service publishes its progress under that id, and the gateway passes it
 * on over the user's realtime socket. The shell reports each update here; the area that asked for the
 * work listens to its id. In memory: the kit is one shared singleton, so the shell and the areas share
 * the listeners. Updates are best effort, they may come out of order or not at all.
 */

/** `done` of `total` items of the work named `id`. */
export interface ProgressUpdate {
  id: string;
  done: number;
  total: number;
}

type ProgressListener = (update: ProgressUpdate) => void;

const listeners = new Map<string, Set<ProgressListener>>();

/** Passes an update on to the listeners of its id; one nobody listens to is dropped. */
export function reportProgress(update: ProgressUpdate): void {
  const listening = listeners.get(update.id);
  if (!listening) return;
  for (const listener of [...listening]) listener(update);
}

/** Calls `listener` with each update of the work `id`, until the function it returns is called. */
export function onProgress(id: string, listener: ProgressListener): () => void {
  let listening = listeners.get(id);
  if (!listening) {
    listening = new Set();
    listeners.set(id, listening);
  }
  listening.add(listener);
  return () => {
    listening.delete(listener);
    if (listening.size === 0 && listeners.get(id) === listening) listeners.delete(id);
  };
}

/** A new id (a random UUID) for work whose progress is to be followed. */
export function newProgressId(): string {
  // randomUUID exists only in a secure context: a page served over http:// from another host than
  // localhost has getRandomValues alone.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40; // version 4
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
