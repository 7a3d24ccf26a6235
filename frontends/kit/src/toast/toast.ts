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

function show(kind: ToastKind, message?: string): string {
  const text = message?.trim() ? message : TOAST_DEFAULTS[kind];
  return notifications.show({
    message: text,
    color: COLORS[kind],
    autoClose: toastDuration(text),
    withBorder: true,
    role: kind === 'error' ? 'alert' : 'status',
    closeButtonProps: { 'aria-label': 'Close notification' },
    'data-toast': kind,
  } as Parameters<typeof notifications.show>[0]);
}

export const toast = {
  success: (message?: string) => show('success', message),
  error: (message?: string) => show('error', message),
  info: (message?: string) => show('info', message),
  hide: (id: string) => notifications.hide(id),
  clean: () => notifications.clean(),
};
