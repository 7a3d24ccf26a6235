/**
 * Users whose sessions identity revoked (sign-out everywhere, refresh-token reuse), with the time of
 * revocation. Access tokens issued before it are refused for the rest of their short life, so a revoked
 * session stops at once instead of when its token expires. Every replica sees every revocation event.
 */
export class RevocationList {
  private readonly revokedAt = new Map<string, number>();

  /** @param retainSeconds how long to remember a revocation: at least the access token lifetime. */
  constructor(
    private readonly retainSeconds = 3_600,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1_000),
  ) {}

  revoke(userId: string, atSeconds = this.nowSeconds()): void {
    this.prune();
    this.revokedAt.set(userId, Math.max(atSeconds, this.revokedAt.get(userId) ?? 0));
  }

  /** True for a token issued strictly before its user's last revocation. */
  isRevoked(userId: string, issuedAtSeconds: number | undefined): boolean {
    const at = this.revokedAt.get(userId);
    if (at === undefined || issuedAtSeconds === undefined) return false;
    return issuedAtSeconds < at;
  }

  private prune(): void {
    const horizon = this.nowSeconds() - this.retainSeconds;
    for (const [userId, at] of this.revokedAt) if (at < horizon) this.revokedAt.delete(userId);
  }
}
