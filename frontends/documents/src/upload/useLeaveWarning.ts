import { useEffect } from 'react';

/**
 * While `active`, closing, reloading or leaving the page asks first (the browser's own dialog; it shows
 * no text of ours): files still being sent would be lost.
 */
export function useLeaveWarning(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Browsers before Chromium 119 ask only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
