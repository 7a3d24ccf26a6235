import { useSyncExternalStore } from 'react';

/** A toast's text in the status region; `key` is new at every saying, so the same words are read again. */
export interface ToastAnnouncement {
  toastId: string;
  key: number;
  text: string;
}

let said: readonly ToastAnnouncement[] = [];
let nextKey = 1;
const listeners = new Set<() => void>();

function update(next: readonly ToastAnnouncement[]) {
  said = next;
  for (const listener of listeners) listener();
}

/** Says `text` for toast `toastId`, in place of what the region said for it before. */
export function announceToast(toastId: string, text: string): void {
  update([...said.filter((a) => a.toastId !== toastId), { toastId, key: nextKey++, text }]);
}

/** Takes toast `toastId` out of the region as it closes, so the region holds only what shows. */
export function withdrawToast(toastId: string): void {
  if (said.some((a) => a.toastId === toastId)) update(said.filter((a) => a.toastId !== toastId));
}

/** Empties the region with `toast.clean`, which closes the toasts without their `onClose`. */
export function withdrawAllToasts(): void {
  if (said.length > 0) update([]);
}

/**
 * Whether the region holds text for toast `toastId`: one shown and not closed, bar an error toast
 * (its alert role says it).
 */
export function isToastAnnounced(toastId: string): boolean {
  return said.some((a) => a.toastId === toastId);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useToastAnnouncements(): readonly ToastAnnouncement[] {
  return useSyncExternalStore(subscribe, () => said);
}
