import type { Actor } from '@portico/platform';

interface Entry {
  actor: Actor;
  /** Expiry of the token, in seconds. */
  exp: number;
  /** When it was issued, in epoch milliseconds (for the revocations). */
  issuedAtMs?: number;
}

/**
 * Tokens this process already verified, so a browser's repeated calls with the same access token skip the
 * signature check until the token expires. Keyed by the exact token text; bounded, oldest evicted first.
 * Revocation is checked by the caller on every hit.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly maxEntries = 10_000,
    private readonly nowSeconds: () => number = () => Date.now() / 1_000,
  ) {}

  get(token: string): Entry | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (entry.exp <= this.nowSeconds()) {
      this.entries.delete(token);
      return undefined;
    }
    return entry;
  }

  set(token: string, entry: Entry): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(token, entry);
  }
}
