import { VisuallyHidden } from '@mantine/core';
import { useToastAnnouncements } from './toast-announcements.js';

/**
 * The polite status region that says the toasts, there before the first one. A screen reader reads a
 * live region when its content changes; a notification that appears already holding its text, as a
 * toast does, is often not read. Each saying is an element of its own: one added is read, the same
 * words included, and toasts shown together are each read (`aria-atomic` false: not all again).
 */
export function ToastAnnouncer() {
  const said = useToastAnnouncements();
  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="false" data-toast-announcer="">
      {said.map((a) => (
        <span key={a.key}>{a.text}</span>
      ))}
    </VisuallyHidden>
  );
}
