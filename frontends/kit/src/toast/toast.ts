import { notifications } from '@mantine/notifications';
import { createElement } from 'react';
import { PendingProgress } from './PendingProgress.js';
import { announceToast, isToastAnnounced, withdrawAllToasts, withdrawToast } from './toast-announcements.js';

export type ToastKind = 'success' | 'error' | 'info';

/** The spec's default texts (spec 1 s.8, Toast defaults). */
export const TOAST_DEFAULTS: Record<ToastKind, string> = {
  info: 'Updated',
  error: 'Something went wrong',
  success: 'Successfully updated',
};

/** max(4000 ms, 50 ms per character of the message) — spec 1 s.2.10. */
export function toastDuration(message: string): number {
  return Math.max(4000, 50 * message.length);
}

const COLORS: Record<ToastKind, string> = { success: 'green', error: 'red', info: 'firm' };

type NotificationData = Parameters<typeof notifications.show>[0];

const toastText = (kind: ToastKind, message?: string): string =>
  message?.trim() ? message : TOAST_DEFAULTS[kind];

/**
 * A toast of `kind` as the spec times it: closes after max(4000 ms, 50 ms per character). An error is
 * an alert, read as it appears; the others are said by the toasts' status region (`ToastAnnouncer`)
 * when they show, which for a toast queued behind the five shown is later than `show`.
 */
function toastData(kind: ToastKind, message?: string): NotificationData {
  const text = toastText(kind, message);
  return {
    message: text,
    color: COLORS[kind],
    autoClose: toastDuration(text),
    loading: false,
    withBorder: true,
    // Not a live region of its own besides the region that says it: read once, not twice.
    role: kind === 'error' ? 'alert' : 'none',
    closeButtonProps: { 'aria-label': 'Close notification' },
    'data-toast': kind,
    onOpen: ({ id }: { id: string }) => {
      if (kind !== 'error') announceToast(id, text);
    },
    onClose: ({ id }: { id: string }) => withdrawToast(id),
  } as NotificationData;
}

const show = (kind: ToastKind, message?: string): string => notifications.show(toastData(kind, message));

/** Long work shown by `toast.pending`: how far it has got, and how it ended. */
export interface PendingToast {
  /** Shows `done` of `total` files under the notice's text, in place. */
  progress: (done: number, total: number) => void;
  done: (kind: ToastKind, message?: string) => void;
}

/**
 * A notice with a spinner that stays while long work goes on (a zip being built), then becomes the
 * toast that says how it ended, in place. If the user closed it meanwhile, the ending is a toast of its own.
 */
function pending(message: string): PendingToast {
  let closed = false;
  let ended = false;
  const pendingData = (body: NotificationData['message']) =>
    ({
      ...toastData('info', message),
      message: body,
      loading: true,
      autoClose: false,
      'data-toast': 'pending',
      onClose: () => {
        closed = true;
        withdrawToast(id);
      },
    }) as NotificationData;
  const id = notifications.show(pendingData(message));
  return {
    // Not said by the status region: an update every few files would talk over everything else. The
    // bar is there for who looks, the ending is said.
    progress: (done, total) => {
      // Work of nothing (a zip of an empty folder) has no progress to show: it ends at once.
      if (closed || ended || total <= 0) return;
      notifications.update({
        ...pendingData(createElement(PendingProgress, { text: message, done, total })),
        id,
      });
    },
    done: (kind, text) => {
      ended = true;
      if (closed) {
        show(kind, text);
        return;
      }
      notifications.update({ ...toastData(kind, text), id } as NotificationData);
      // A notice already shown changes in place, which its role does not make read (one that becomes
      // an alert included), so the region says the ending. One still queued is said when it shows.
      if (isToastAnnounced(id)) announceToast(id, toastText(kind, text));
    },
  };
}

export const toast = {
  success: (message?: string) => show('success', message),
  error: (message?: string) => show('error', message),
  info: (message?: string) => show('info', message),
  pending,
  hide: (id: string) => notifications.hide(id),
  clean: () => {
    notifications.clean();
    withdrawAllToasts();
  },
};
