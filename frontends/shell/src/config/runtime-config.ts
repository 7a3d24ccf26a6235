/** What the shell reads at start from /runtime-config.json (deployment-specific, never built in). */
export interface RuntimeConfig {
  /** The gateway's base URL; '' means the shell's own origin (behind Kong). */
  apiUrl: string;
  /** The firm whose branding the sign-in page shows when no ?firm= is given. */
  firmSlug?: string;
  /** Remote name -> URL of its mf-manifest.json. */
  remotes: Record<string, string>;
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return !!value && typeof value === 'object' && Object.values(value).every((v) => typeof v === 'string');
}

/**
 * Reads /runtime-config.json; falls back to /remotes-manifest.json (the flat name -> manifest map the
 * Kubernetes deployment mounts) with the API on the same origin.
 */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const read = async (path: string) => {
    const res = await fetchImpl(path, { cache: 'no-store' });
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return (await res.json()) as unknown;
  };
  try {
    const raw = (await read('/runtime-config.json')) as Partial<RuntimeConfig>;
    if (typeof raw.apiUrl !== 'string' || !isRecordOfStrings(raw.remotes))
      throw new Error('bad runtime config');
    return { apiUrl: raw.apiUrl, firmSlug: raw.firmSlug, remotes: raw.remotes };
  } catch (first) {
    try {
      const remotes = await read('/remotes-manifest.json');
      if (!isRecordOfStrings(remotes)) throw first;
      return { apiUrl: '', remotes };
    } catch {
      console.error('[portico] no runtime configuration', first);
      return { apiUrl: '', remotes: {} };
    }
  }
}
