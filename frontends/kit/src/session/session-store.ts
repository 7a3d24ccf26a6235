/** What a signed-in browser keeps: the token pair from exchange_token or refresh. */
export interface StoredSession {
  access_token: string;
  refresh_token: string;
  user_id: string;
  is_advisor: boolean;
  set_password_required: boolean;
  /** Epoch milliseconds when the access token expires. */
  expires_at: number;
}

export type SignOutReason = 'user' | 'expired' | 'forced';

/**
 * Messages between tabs of the same origin. A sign-in names its user: a browser may deliver the
 * message to another tab before that tab's copy of localStorage shows the new session.
 */
export type TabMessage =
  | { type: 'signed_out'; reason: SignOutReason }
  | { type: 'signed_in'; user_id: string | null };

export const SESSION_KEY = 'portico.session';
export const CHANNEL_NAME = 'portico.session';
export const SIGNED_OUT_NOTICE =
  'You have been signed out. When you are signed out in one page, we sign you out in all of them to keep your data secure.';
export const SIGNED_OUT_NOTICE_MS = 10_000;

type Listener = (event: { reason: SignOutReason; notice: boolean }) => void;

/** What the store needs of a Storage. */
type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The session shared by every tab: tokens in localStorage (so a reload and a second tab stay signed
 * in, and a refresh in one tab is seen by the others), sign-out broadcast over BroadcastChannel, with
 * storage events as the fallback where BroadcastChannel is missing.
 */
export class SessionStore {
  private channel?: BroadcastChannel;
  private listening = false;
  private readonly signedOutListeners = new Set<Listener>();
  private readonly changeListeners = new Set<() => void>();
  private readonly userChangedListeners = new Set<() => void>();
  /** The user this tab last knew signed in (null: none), to tell another tab's sign-in as someone else. */
  private userHere: string | null = null;
  private found?: SessionStorage;
  /** The stored value last read and what it parsed to: the same object while the value is the same. */
  private last?: { raw: string | null; session: StoredSession | null };

  /**
   * `storage` defaults to localStorage, looked up on first use, not here: the first access to it in a
   * page waits for the browser to load the site's storage, and the sign-in page creates this store
   * before its first frame without needing it then.
   */
  constructor(private readonly storageOverride?: Storage) {}

  /**
   * A browser that blocks site data throws from `localStorage` itself: the session is then kept in this
   * tab's memory, for as long as the tab (a reload or another tab starts signed out).
   */
  private get storage(): SessionStorage {
    if (this.storageOverride) return this.storageOverride;
    if (!this.found) {
      try {
        this.found = window.localStorage;
      } catch {
        this.found = memoryStorage();
      }
    }
    return this.found;
  }

  /**
   * Joins the other tabs on first use (a subscription or a change made here), not in the constructor:
   * the sign-in page creates the store before its first frame and opening the channel is an IPC round.
   */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.userHere = this.get()?.user_id ?? null;
    if (typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(CHANNEL_NAME);
      this.channel.onmessage = (e: MessageEvent<TabMessage>) => this.onTabMessage(e.data);
    } else {
      // The same messages read off the shared storage: a removal is a sign-out, a new value a sign-in
      // or a refresh.
      window.addEventListener('storage', (e) => {
        if (e.key !== SESSION_KEY || e.newValue === e.oldValue) return;
        if (e.newValue === null) this.onTabMessage({ type: 'signed_out', reason: 'forced' });
        else this.onTabMessage({ type: 'signed_in', user_id: parseSession(e.newValue)?.user_id ?? null });
      });
    }
  }

  /** The stored session; the same object until it changes (a snapshot for React to compare). */
  get(): StoredSession | null {
    const raw = this.storage.getItem(SESSION_KEY);
    if (this.last?.raw !== raw) this.last = { raw, session: parseSession(raw) };
    return this.last.session;
  }

  get accessToken(): string | undefined {
    return this.get()?.access_token;
  }

  set(tokens: Omit<StoredSession, 'expires_at'> & { expires_in?: number }): StoredSession {
    const { expires_in, ...rest } = tokens;
    const session: StoredSession = { ...rest, expires_at: Date.now() + (expires_in ?? 900) * 1000 };
    this.storage.setItem(SESSION_KEY, JSON.stringify(session));
    this.listen();
    this.userHere = session.user_id;
    this.channel?.postMessage({ type: 'signed_in', user_id: session.user_id } satisfies TabMessage);
    this.emitChange();
    return session;
  }

  /**
   * Ends the session in this tab and every other one. The notice shows in the other tabs always, and in
   * this one unless the user asked to sign out. Without a session here nothing is said: the tab that
   * ended it told every tab already, and the echoes that follow (a socket closed by the revocation, a
   * call refused with the old token) would show the notice again, in the tab of the user who signed out.
   * With `expected`, only that session is ended: one stored since (a sign-in in another tab) is kept.
   */
  signOut(reason: SignOutReason, expected?: StoredSession): void {
    const stored = this.get();
    if (expected && stored && stored.refresh_token !== expected.refresh_token) return;
    this.storage.removeItem(SESSION_KEY);
    if (!stored) return;
    this.listen();
    this.userHere = null;
    this.channel?.postMessage({ type: 'signed_out', reason } satisfies TabMessage);
    this.emitSignedOut(reason, reason !== 'user');
  }

  /**
   * Whether a token is known to be of a session other than the one stored now: another session id, or
   * another user (tokens without a session id). A socket opened with a replaced session's token, closed
   * when that session is revoked, must not end the session that replaced it. Unknown (no stored
   * session, a token that is not a JWT) answers false, which keeps the sign-out.
   */
  isOtherSession(token: string): boolean {
    const stored = this.accessToken;
    if (!stored || stored === token) return false;
    const theirs = sessionClaims(token);
    const ours = sessionClaims(stored);
    if (!theirs || !ours) return false;
    if (theirs.sid && ours.sid) return theirs.sid !== ours.sid;
    return theirs.sub !== ours.sub;
  }

  onSignedOut(listener: Listener): () => void {
    this.listen();
    this.signedOutListeners.add(listener);
    return () => this.signedOutListeners.delete(listener);
  }

  /**
   * Another tab signed in as someone else over this tab's user: what this tab shows (its caches, its
   * pages) is the previous user's, and its next calls would go out as the new one.
   */
  onUserChanged(listener: () => void): () => void {
    this.listen();
    this.userChangedListeners.add(listener);
    return () => this.userChangedListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.listen();
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  close(): void {
    this.channel?.close();
  }

  private onTabMessage(message: TabMessage): void {
    if (message.type === 'signed_out') {
      this.storage.removeItem(SESSION_KEY);
      this.userHere = null;
      this.emitSignedOut(message.reason, true);
      return;
    }
    const before = this.userHere;
    this.userHere = message.user_id ?? this.get()?.user_id ?? null;
    if (before && this.userHere && before !== this.userHere) {
      for (const l of this.userChangedListeners) l();
    }
    this.emitChange();
  }

  private emitSignedOut(reason: SignOutReason, notice: boolean): void {
    for (const l of this.signedOutListeners) l({ reason, notice });
    this.emitChange();
  }

  private emitChange(): void {
    for (const l of this.changeListeners) l();
  }
}

function memoryStorage(): SessionStorage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
}

function parseSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as StoredSession;
  } catch {
    return null;
  }
}

/**
 * The claims of an access token that name its session and user, read without verifying it (the gateway
 * verifies tokens; this only tells two of this browser's tokens apart).
 */
function sessionClaims(token: string): { sid?: string; sub?: string } | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as Record<string, unknown>;
    return {
      ...(typeof claims.sid === 'string' ? { sid: claims.sid } : {}),
      ...(typeof claims.sub === 'string' ? { sub: claims.sub } : {}),
    };
  } catch {
    return null;
  }
}
