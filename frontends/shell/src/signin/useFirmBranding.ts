import { DEFAULT_PRIMARY, type FirmBranding, loadThemeCss, useApi } from '@portico/kit/signin';
import { startTransition, useEffect, useState } from 'react';

// One request per firm and page load; a failed one is tried again on the next mount.
const cache = new Map<string, Promise<FirmBranding | null>>();

let painted: Promise<void> | undefined;
/** Settles in the first task after the page's next frame has been painted (once per page load). */
function afterFirstPaint(): Promise<void> {
  painted ??= new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return resolve();
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
  return painted;
}

/**
 * The firm's logo, name and colour for the sign-in page (GET /firms/get_firm_theme_by_slug). The answer
 * is applied after the form's first frame has been painted, as a transition: it often arrives before
 * that frame, and re-rendering the page in the firm's theme (every component's styles) would hold the
 * form back by about 10 ms on a fast machine. The form shows in the default colour for one frame.
 * The module that computes a firm's colour loads once that frame is painted, alongside the request, and
 * the branding of a firm with its own colour waits for it (not for a failed load), so that the colour
 * comes with the logo and name.
 *
 * It asks with the API as provided, not the sign-in flow's calls: those drop an answer that comes after
 * the user moved on (Continue, a link), which would leave a page opened and left quickly unbranded.
 */
export function useFirmBranding(slug: string): FirmBranding | null {
  const { users } = useApi();
  const [branding, setBranding] = useState<FirmBranding | null>(null);
  useEffect(() => {
    if (!slug) {
      setBranding(null);
      return;
    }
    let request = cache.get(slug);
    if (!request) {
      request = users.firmThemeBySlug(slug).catch(() => {
        cache.delete(slug);
        return null;
      });
      cache.set(slug, request);
    }
    let live = true;
    // After the first frame too: evaluating it before would hold the form back.
    const themeCss = afterFirstPaint()
      .then(loadThemeCss)
      .catch(() => undefined);
    const ready = request.then(async (found) => {
      if (found?.primary && found.primary.toLowerCase() !== DEFAULT_PRIMARY) await themeCss;
      return found;
    });
    void Promise.all([ready, afterFirstPaint()]).then(([found]) => {
      if (live) startTransition(() => setBranding(found));
    });
    return () => {
      live = false;
    };
  }, [users, slug]);
  return branding;
}
