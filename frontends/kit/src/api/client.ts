import type { SessionStore, StoredSession } from '../session/session-store.js';
import { ApiError, type ErrorBody } from './errors.js';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send the bearer token and apply the refresh rule. Default true. */
  auth?: boolean;
  signal?: AbortSignal;
  /** How long the call may take, answer included, before it fails with a TimeoutError (0: no limit). */
  timeoutMs?: number;
}

export interface ApiClientOptions {
  baseUrl: string;
  session: SessionStore;
  fetch?: typeof fetch;
}

interface TokenPair {
  access_token: string;
  refresh_token: string;
  user_id: string;
  is_advisor: boolean;
  set_password_required: boolean;
  expires_in: number;
}

/** What a refresh made of the session a call failed with. */
type RefreshOutcome = 'refreshed' | 'over' | 'another_user';

/** The answers to a refresh that mean the session is over (its refresh token unknown, spent or revoked). */
const SESSION_OVER = [400, 401, 403];
/** How long before its expiry a token is refreshed for a connection that cannot be retried on 401. */
const TOKEN_MARGIN_MS = 30_000;

/**
 * How long a call waits for a refresh of the session before it fails (the session is kept). The refresh
 * itself is not aborted: identity may have rotated the token already, and its answer is kept if it comes.
 */
export const REFRESH_TIMEOUT_MS = 15_000;
/**
 * How long any call may wait for its answer: longer than the gateway's longest deadline (60 s, a zip),
 * so a slow service is still the gateway's 504 with its message; this ends a call whose connection
 * stalled (a network change, a proxy that swallowed it), which the browser waits on for minutes with a
 * spinner. The answer's body is not bounded: a listing of several megabytes may take longer to arrive
 * over a slow link.
 */
export const REQUEST_TIMEOUT_MS = 70_000;
/** How long a tab waits for the tokens another tab has just renewed the session with. */
const RENEWED_ELSEWHERE_WAIT_MS = 3_000;

/**
 * JSON over HTTP to the gateway. A 401 on an authenticated call gets one retry after
 * POST /sessions/refresh; when that fails too, the session ends in every tab (spec 1 s.4.5).
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly session: SessionStore;
  private readonly fetchImpl: typeof fetch;
  private refreshing?: Promise<RefreshOutcome>;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, '');
    this.session = options.session;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  get<T>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  put<T>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }

  url(path: string, query?: Query): string {
    const url = `${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
    if (!query) return url;
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v));
    const qs = params.toString();
    return qs ? `${url}?${qs}` : url;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const auth = options.auth ?? true;
    const sent = auth ? this.session.get() : null;
    let response = await this.send(method, path, options, sent?.access_token);
    if (response.status === 401 && sent) {
      // A refresh that could not be made (offline, a 5xx, a 429) fails this call with its error and
      // keeps the session for the next call; only a refused refresh token ends the session. A call made
      // for one user is never sent again as another, who signed in meanwhile in another tab.
      // The sign-out ends only the session that failed: one stored since (another tab's sign-in) stays.
      const outcome = await this.refreshOnce(sent);
      if (outcome !== 'refreshed') {
        if (outcome === 'over') this.session.signOut('expired', sent);
        throw await this.failure(response);
      }
      const renewed = this.session.get();
      response = await this.send(method, path, options, renewed?.access_token);
      if (response.status === 401) {
        if (renewed) this.session.signOut('expired', renewed);
        throw await this.failure(response);
      }
    }
    return this.parse<T>(response);
  }

  /**
   * The access token, refreshed first when it has expired or is about to (within 30 s): for a
   * connection that is not an API call and so is never answered 401 to trigger the refresh (the
   * realtime socket). Undefined when there is no session or it is over; rejects when a refresh could
   * not be made, with the session kept.
   */
  async freshAccessToken(): Promise<string | undefined> {
    const current = this.session.get();
    if (!current) return undefined;
    if (current.expires_at - Date.now() > TOKEN_MARGIN_MS) return current.access_token;
    const outcome = await this.refreshOnce(current);
    if (outcome === 'over') this.session.signOut('expired', current);
    return outcome === 'refreshed' ? this.session.accessToken : undefined;
  }

  private async send(method: string, path: string, options: RequestOptions, token?: string) {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const init: RequestInit = {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    };
    const url = this.url(path, options.query);
    const limit = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    if (limit <= 0) return this.fetchImpl(url, init);
    // Aborted when the answer is late (a TimeoutError, on the page's own timers) or when the caller
    // aborts (with its reason). Written out: AbortSignal.any is missing from the Safari versions supported.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(timedOut()), limit);
    const callerAborted = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) callerAborted();
    else options.signal?.addEventListener('abort', callerAborted, { once: true });
    try {
      return await this.fetchImpl(url, { ...init, signal: controller.signal });
    } catch (err) {
      // Whatever a browser rejects an aborted fetch with, the call fails with why it was aborted.
      throw controller.signal.aborted ? controller.signal.reason : err;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * One refresh for all calls that failed with the same token; a tab that finds a newer token of the
   * same user in storage (another tab refreshed) uses it instead of rotating again. Web Locks keep two
   * tabs from rotating the same refresh token at once. 'over' when the session is (none stored, or its
   * refresh token refused), 'another_user' when someone else signed in meanwhile in another tab; a
   * refresh that could not be made at all rejects with why. A refused refresh token ends nothing when a
   * session was stored meanwhile (a sign-in in another tab, which revoked the old session): that one
   * stands. The new tokens are stored only if the session they renew is still the stored one: a sign-out
   * or another sign-in while the refresh was under way would otherwise be undone, the tokens written
   * back, and they are signed out instead. The same goes for the answer of a refresh the calls stopped
   * waiting for (REFRESH_TIMEOUT_MS): identity may have rotated the token already, and the old one,
   * offered again, would be refused as reused; so it is not offered again while that refresh is out.
   */
  private refreshOnce(failed: StoredSession): Promise<RefreshOutcome> {
    // What a session found in storage makes of the failed one: none, someone else's, or the same user's.
    const standing = (stored: StoredSession | null): RefreshOutcome =>
      !stored ? 'over' : stored.user_id === failed.user_id ? 'refreshed' : 'another_user';
    this.refreshing ??= this.withLock(async (): Promise<RefreshOutcome> => {
      const current = this.session.get();
      // Gone, or already replaced (another tab refreshed, or someone signed in): nothing to rotate here.
      if (!current || current.access_token !== failed.access_token) return standing(current);
      let tokens: TokenPair;
      try {
        // Bounded as any call is (REQUEST_TIMEOUT_MS). The lock is held until it answers, so no call of
        // any tab sends the same refresh token again meanwhile (identity would take the second for a
        // stolen token's reuse); the calls themselves wait for it no longer than REFRESH_TIMEOUT_MS.
        tokens = await this.parse<TokenPair>(
          await this.send('POST', '/sessions/refresh', { body: { refresh_token: current.refresh_token } }),
        );
      } catch (err) {
        if (err instanceof ApiError && SESSION_OVER.includes(err.status)) {
          const now = this.session.get();
          return now && now.refresh_token !== current.refresh_token ? standing(now) : 'over';
        }
        // 409: another tab renewed this session a moment ago, and its tokens are on their way into this
        // tab's copy of the storage. They are waited for, a little, rather than failing the call.
        if (err instanceof ApiError && err.status === 409) {
          const renewed = await this.renewedElsewhere(current);
          if (renewed) return standing(renewed);
        }
        throw err;
      }
      const now = this.adopt(current, tokens);
      return now === 'adopted' ? 'refreshed' : standing(now);
    }).finally(() => {
      this.refreshing = undefined;
    });
    // A refresh that takes longer fails this call (the session is kept) and goes on: its answer is kept
    // if the session is still the one it renews, and later calls wait for the same refresh.
    return withinRefreshTimeout(this.refreshing);
  }

  /**
   * Stores the tokens a refresh of `refreshed` answered if that session is still the stored one;
   * otherwise signs them out on the server and answers the session stored now.
   */
  private adopt(refreshed: StoredSession, tokens: TokenPair): 'adopted' | StoredSession | null {
    const now = this.session.get();
    if (now?.refresh_token !== refreshed.refresh_token) {
      void this.send('POST', '/sessions/sign_out', { body: { refresh_token: tokens.refresh_token } }).catch(
        () => {},
      );
      return now;
    }
    this.session.set(tokens);
    return 'adopted';
  }

  /** The session once storage shows it renewed by another tab (or replaced); null if it does not soon. */
  private async renewedElsewhere(renewed: StoredSession): Promise<StoredSession | null> {
    const until = Date.now() + RENEWED_ELSEWHERE_WAIT_MS;
    for (;;) {
      const now = this.session.get();
      if (now?.access_token !== renewed.access_token) return now;
      if (Date.now() >= until) return null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private withLock<R>(fn: () => Promise<R>): Promise<R> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
    return locks ? (locks.request('portico.refresh', fn) as Promise<R>) : fn();
  }

  private async parse<T>(response: Response): Promise<T> {
    const body = await readJson(response);
    if (!response.ok || body === NOT_JSON) throw new ApiError(response.status, body as Partial<ErrorBody>);
    if (body && typeof body === 'object' && 'error' in body && (body as ErrorBody).error) {
      throw new ApiError(response.status, body as ErrorBody);
    }
    return body as T;
  }

  private async failure(response: Response): Promise<ApiError> {
    return new ApiError(response.status, (await readJson(response)) as Partial<ErrorBody>);
  }
}

/** Why a call failed after waiting its limit (the page's own timer). */
const timedOut = () => new DOMException('The request took too long', 'TimeoutError');
/** The outcome of a refresh, or a TimeoutError once REFRESH_TIMEOUT_MS have passed; the refresh goes on. */
function withinRefreshTimeout<T>(answer: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), REFRESH_TIMEOUT_MS);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/**
 * A body that is not JSON: a page of a proxy or a web server (an HTML 502), not the gateway's answer. A
 * failure with no message of its own, so the generic text is shown rather than the page's markup.
 */
const NOT_JSON: Partial<ErrorBody> = { code: 'invalid_response' };

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}
