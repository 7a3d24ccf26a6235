/** What the shell reads at start from /runtime-config.json (deployment-specific, never built in). */
export interface RuntimeConfig {
  /** The gateway's base URL; '' means the shell's own origin (behind Kong). */
  apiUrl: string;
  /** The firm whose branding the sign-in page shows when no ?firm= is given. */
  firmSlug?: string;
  /** Remote name -> URL of its mf-manifest.json. */
  remotes: Record<string, string>;
}

/**
 * The gateway's address as the API client joins paths to it: '' (this origin) or an absolute http(s)
 * address, a path prefix kept and a trailing slash dropped. Anything else ('/api', 'api.example.com')
 * would fail on the first request, or before the first frame.
 */
function gatewayAddress(value: string): string {
  if (!value) return '';
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`/runtime-config.json: apiUrl must be an http(s) address, not ${value}`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return !!value && typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Reads /runtime-config.json: the local stack generates it, Kubernetes and compose mount it. Without a
 * usable one the shell still starts, with the API on its own origin and no remotes, and says why in the
 * console.
 */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  try {
    const res = await fetchImpl('/runtime-config.json', { cache: 'no-store' });
    if (!res.ok) throw new Error(`/runtime-config.json: ${res.status}`);
    const raw = (await res.json()) as Partial<RuntimeConfig>;
    if (typeof raw.apiUrl !== 'string' || !isRecordOfStrings(raw.remotes))
      throw new Error('/runtime-config.json: apiUrl (a string) and remotes (name -> URL) are required');
    const firmSlug = typeof raw.firmSlug === 'string' && raw.firmSlug ? raw.firmSlug : undefined;
    return { apiUrl: gatewayAddress(raw.apiUrl), firmSlug, remotes: raw.remotes };
  } catch (problem) {
    console.error('[portico] no runtime configuration', problem);
    return { apiUrl: '', remotes: {} };
  }
}
