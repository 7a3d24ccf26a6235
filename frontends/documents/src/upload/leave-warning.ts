/**
 * Until the returned function is called, closing, reloading or leaving the page asks first (the
 * browser's own dialog; it shows no text of ours): files still being sent would be lost. Tied to the
 * upload rather than to a screen: an upload goes on after its screen is left for another of the portal.
 * `stillNeeded` is asked at each attempt to leave: once it answers false, leaving does not ask.
 */
export function warnBeforeLeaving(stillNeeded: () => boolean = () => true): () => void {
  const warn = (event: BeforeUnloadEvent) => {
    if (!stillNeeded()) return;
    event.preventDefault();
    // Browsers before Chromium 119 ask only when a return value is set.
    event.returnValue = '';
  };
  window.addEventListener('beforeunload', warn);
  return () => window.removeEventListener('beforeunload', warn);
}
