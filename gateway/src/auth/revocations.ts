/**
 * Revoked sessions, as identity announces them. A user's revocation (sign-out everywhere) refuses the
 * access tokens issued before it; a session's (signed out, or its refresh token reused) refuses every
 * access token of that session (`sid`), which never issues another. Either is remembered for the rest of
 * the tokens' short life, so a revoked session stops at once instead of when its token expires. Every
 * replica sees every revocation event.
 */
export class RevocationList {
  private readonly revokedAt = new Map<string, number>();
  private readonly sessionsRevokedAt = new Map<string, number>();

  /** @param retainSeconds how long to remember a revocation: at least the access token lifetime. */
  constructor(
    private readonly retainSeconds = 3_600,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1_000),
  ) {}

  revoke(userId: string, atSeconds = this.nowSeconds()): void {
    this.prune();
    this.revokedAt.set(userId, Math.max(atSeconds, this.revokedAt.get(userId) ?? 0));
  }

  revokeSession(sessionId: string, atSeconds = this.nowSeconds()): void {
    this.prune();
    this.sessionsRevokedAt.set(sessionId, atSeconds);
  }

  /** True for a token of a revoked session, or issued strictly before its user's last revocation. */
  isRevoked(userId: string, issuedAtSeconds: number | undefined, sessionId?: string): boolean {
    if (sessionId && this.sessionsRevokedAt.has(sessionId)) return true;
    const at = this.revokedAt.get(userId);
    if (at === undefined || issuedAtSeconds === undefined) return false;
    return issuedAtSeconds < at;
  }

  private prune(): void {
    const horizon = this.nowSeconds() - this.retainSeconds;
    for (const revoked of [this.revokedAt, this.sessionsRevokedAt])
      for (const [key, at] of revoked) if (at < horizon) revoked.delete(key);
  }
}
