/**
 * The firm of the last user signed in on this browser, so /signin shows that firm's branding when
 * neither the address (?firm=) nor the deployment (runtime configuration) names one: a client whose
 * session ended comes back to their firm's page, not an anonymous one. A slug is public (it is what
 * ?firm= carries), so keeping it after sign-out reveals nothing the sign-in page would not show.
 */
const KEY = 'portico.firm';

// A browser that blocks site data throws from `localStorage` itself, not only from its methods: it is
// read inside the try.
export function rememberedFirm(storage?: Storage): string | undefined {
  try {
    return (storage ?? globalThis.localStorage)?.getItem(KEY) || undefined;
  } catch {
    return undefined; // storage refused (privacy settings): no branding, as before
  }
}

export function rememberFirm(slug: string, storage?: Storage): void {
  try {
    const store = storage ?? globalThis.localStorage;
    if (slug && store?.getItem(KEY) !== slug) store?.setItem(KEY, slug);
  } catch {
    // storage refused: nothing to remember
  }
}
