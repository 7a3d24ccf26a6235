import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Logger } from '@portico/platform';
import { unauthenticated } from './auth.errors.js';

/** A public key as identity publishes it (EC P-256). */
export interface PublicJwk {
  kid: string;
  kty: string;
  crv: string;
  x: string;
  y: string;
}

export interface JwksCacheOptions {
  /** Shortest time between two refreshes caused by an unknown kid, so forged kids cannot flood identity. */
  refreshMinIntervalMs: number;
  /** Keys are fetched again after this age, so a rotated-out key stops being accepted. */
  maxAgeMs: number;
}

/**
 * The verification keys by kid, fetched from identity and kept in memory. One fetch at a time; an
 * unknown kid refreshes at most once per interval; when a refresh fails the known keys stay in use.
 * Keys past their age are refreshed in the background while a known kid is served from memory: a
 * request waited for every refresh, so a slow identity service slowed every route of the gateway,
 * again on each request while the refresh kept failing. A failed refresh is not tried again within
 * the interval.
 */
export class JwksCache {
  private keys = new Map<string, KeyObject>();
  /** The set as identity last published it, served at the JWKS route. */
  private published: readonly PublicJwk[] = [];
  private fetchedAt = 0;
  private lastUnknownRefresh = Number.NEGATIVE_INFINITY;
  private lastFailure = Number.NEGATIVE_INFINITY;
  private inflight?: Promise<void>;

  constructor(
    private readonly fetchKeys: () => Promise<PublicJwk[]>,
    private readonly options: JwksCacheOptions,
    private readonly log?: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The public key of `kid`, parsed once from its JWK (createPublicKey). It stays a KeyObject rather than
   * PEM text because the verifier would parse PEM again on every request.
   */
  async keyFor(kid: string | undefined): Promise<KeyObject> {
    if (!kid) throw unauthenticated();
    if (this.fetchedAt === 0) await this.refresh();
    else {
      const refreshing = this.refreshIfOld();
      // A known kid does not wait for it; an unknown one does (it may be a new key).
      if (refreshing && !this.keys.has(kid)) await refreshing;
    }
    let key = this.keys.get(kid);
    if (!key && this.now() - this.lastUnknownRefresh >= this.options.refreshMinIntervalMs) {
      this.lastUnknownRefresh = this.now();
      await this.refresh().catch(() => undefined);
      key = this.keys.get(kid);
    }
    if (!key) throw unauthenticated();
    return key;
  }

  /**
   * The key set as identity published it, for the JWKS route: from memory, fetched the first time (a
   * failure then is the caller's 503) and refreshed in the background past its age, like the keys. The
   * route made a request to identity on every hit, which anyone could repeat.
   */
  async publishedKeys(): Promise<readonly PublicJwk[]> {
    if (this.fetchedAt === 0) await this.refresh();
    else void this.refreshIfOld();
    return this.published;
  }

  /** Starts a refresh of a set past its age (unless one failed within the interval); never rejects. */
  private refreshIfOld(): Promise<void> | undefined {
    if (this.now() - this.fetchedAt <= this.options.maxAgeMs || !this.mayRetry()) return undefined;
    return this.refresh().catch(() => undefined);
  }

  /** Fetches the key set; concurrent callers share one request. */
  refresh(): Promise<void> {
    this.inflight ??= this.load()
      .catch((err) => {
        this.lastFailure = this.now();
        this.log?.warn({ err }, 'Could not refresh the verification keys; the known ones stay in use');
        throw err;
      })
      .finally(() => {
        this.inflight = undefined;
      });
    return this.inflight;
  }

  private mayRetry(): boolean {
    return this.now() - this.lastFailure >= this.options.refreshMinIntervalMs;
  }

  private async load(): Promise<void> {
    const jwks = await this.fetchKeys();
    const keys = new Map<string, KeyObject>();
    for (const jwk of jwks) {
      if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.kid) continue;
      try {
        const key = createPublicKey({
          key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y },
          format: 'jwk',
        });
        keys.set(jwk.kid, key);
      } catch (err) {
        this.log?.warn({ err, kid: jwk.kid }, 'Ignoring a JWK that is not a valid EC public key');
      }
    }
    this.keys = keys;
    this.published = jwks;
    this.fetchedAt = this.now();
  }
}
