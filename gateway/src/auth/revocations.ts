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

  /**
   * Times are epoch milliseconds: a token's `iat` is in whole seconds, so a token issued in the second of
   * a revocation, just before it, was taken for one issued after (identity now signs `iat_ms` too).
   * @param retainMs how long to remember a revocation: at least the access token lifetime.
   */
  constructor(
    readonly retainMs = 3_600_000,
    private readonly nowMs: () => number = () => Date.now(),
  ) {}

  revoke(userId: string, atMs = this.nowMs()): void {
    this.prune();
    this.revokedAt.set(userId, Math.max(atMs, this.revokedAt.get(userId) ?? 0));
  }

  revokeSession(sessionId: string, atMs = this.nowMs()): void {
    this.prune();
    this.sessionsRevokedAt.set(sessionId, atMs);
  }

  /** True for a token of a revoked session, or issued strictly before its user's last revocation. */
  isRevoked(userId: string, issuedAtMs: number | undefined, sessionId?: string): boolean {
    if (sessionId && this.sessionsRevokedAt.has(sessionId)) return true;
    const at = this.revokedAt.get(userId);
    if (at === undefined || issuedAtMs === undefined) return false;
    return issuedAtMs < at;
  }

  private prune(): void {
    const horizon = this.nowMs() - this.retainMs;
    for (const revoked of [this.revokedAt, this.sessionsRevokedAt])
      for (const [key, at] of revoked) if (at < horizon) revoked.delete(key);
  }
}
