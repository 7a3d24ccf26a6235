import type { FirmBranding, UsersApi } from '@portico/kit/signin';
import { startTransition, useEffect, useState } from 'react';

// One request per firm and page load; a failed one is tried again on the next mount.
const cache = new Map<string, Promise<FirmBranding | null>>();

/**
 * The firm's logo, name and colour for the sign-in page (GET /firms/get_firm_theme_by_slug). The answer
 * is rendered as a transition: it often arrives before the form's first frame, and re-rendering the page
 * with the firm's theme must not hold that frame back.
 */
export function useFirmBranding(users: UsersApi, slug: string): FirmBranding | null {
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
    void request.then((found) => {
      if (live) startTransition(() => setBranding(found));
    });
    return () => {
      live = false;
    };
  }, [users, slug]);
  return branding;
}
