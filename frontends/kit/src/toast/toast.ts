import { notifications } from '@mantine/notifications';

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

/** A toast of `kind` as the spec times it: closes after max(4000 ms, 50 ms per character). */
function toastData(kind: ToastKind, message?: string): NotificationData {
  const text = message?.trim() ? message : TOAST_DEFAULTS[kind];
  return {
    message: text,
    color: COLORS[kind],
    autoClose: toastDuration(text),
    loading: false,
    withBorder: true,
    role: kind === 'error' ? 'alert' : 'status',
    closeButtonProps: { 'aria-label': 'Close notification' },
    'data-toast': kind,
  } as NotificationData;
}

const show = (kind: ToastKind, message?: string): string => notifications.show(toastData(kind, message));

/** How long work shown by `toast.pending` ended. */
export interface PendingToast {
  done: (kind: ToastKind, message?: string) => void;
}

/**
 * A notice with a spinner that stays while long work goes on (a zip being built), then becomes the
 * toast that says how it ended, in place. If the user closed it meanwhile, the ending is a toast of its own.
 */
function pending(message: string): PendingToast {
  let closed = false;
  const id = notifications.show({
    ...toastData('info', message),
    loading: true,
    autoClose: false,
    'data-toast': 'pending',
    onClose: () => {
      closed = true;
    },
  } as NotificationData);
  return {
    done: (kind, text) => {
      if (closed) show(kind, text);
      else notifications.update({ ...toastData(kind, text), id, onClose: undefined } as NotificationData);
    },
  };
}

export const toast = {
  success: (message?: string) => show('success', message),
  error: (message?: string) => show('error', message),
  info: (message?: string) => show('info', message),
  pending,
  hide: (id: string) => notifications.hide(id),
  clean: () => notifications.clean(),
};
