import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { type Actor, AppError } from '@portico/platform';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import passport from 'passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { sessionRevoked, tokenExpired, unauthenticated } from './auth.errors.js';
import { claimsToActor, issuedAtMs, TOKEN_ALGORITHMS, TOKEN_AUDIENCE, TOKEN_ISSUER } from './claims.rules.js';
import { JwksCache } from './jwks.cache.js';
import { RevocationList } from './revocations.js';
import { VerifiedTokens } from './verified-tokens.js';

export const JWT_STRATEGY = 'jwt';
const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

function kidOf(rawJwt: string): string | undefined {
  try {
    return decodeProtectedHeader(rawJwt).kid;
  } catch {
    return undefined;
  }
}

/** Turns what passport reports for a refused token into the 401 (or 503) the gateway answers. */
export function authFailure(info: unknown): AppError {
  if (info instanceof AppError) return info;
  if (info instanceof Error && info.name === 'TokenExpiredError') return tokenExpired();
  return unauthenticated();
}

/**
 * passport-jwt with identity's keys: the kid in the token header picks the key from the JWKS cache
 * (fetched over NATS), ES256 only, issuer and audience checked; the claims become the Actor.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  private readonly verified = new VerifiedTokens();

  constructor(
    @Inject(JwksCache) keys: JwksCache,
    @Inject(RevocationList) private readonly revocations: RevocationList,
  ) {
    super({
      jwtFromRequest: bearerToken,
      secretOrKeyProvider: (
        _request: unknown,
        rawJwt: string,
        done: (err: unknown, key?: string) => void,
      ) => {
        keys.keyFor(kidOf(rawJwt)).then(
          // jsonwebtoken takes a KeyObject as it is (the typings only name PEM text).
          (key) => done(null, key as unknown as string),
          (err) => done(err),
        );
      },
      algorithms: [...TOKEN_ALGORITHMS],
      issuer: TOKEN_ISSUER,
      audience: TOKEN_AUDIENCE,
    });
  }

  /** Each gateway app keeps its strategy to itself, so several can run in one process (tests, benchmark). */
  getPassportInstance() {
    return new passport.Passport();
  }

  validate(payload: { iat?: number; iat_ms?: number }): Actor {
    const actor = claimsToActor(payload);
    if (this.revocations.isRevoked(actor.user_id, issuedAtMs(payload), actor.session_id))
      throw sessionRevoked();
    return actor;
  }

  /**
   * The actor of a request's bearer token, or the 401/503 to answer. A token this process verified before
   * is taken from memory until it expires (its user's revocations still apply); any other goes through
   * the strategy.
   */
  async authenticateRequest(request: { headers: Record<string, unknown> }): Promise<Actor> {
    const token = bearerToken(request as never);
    const known = token ? this.verified.get(token) : undefined;
    if (known && !this.revocations.isRevoked(known.actor.user_id, known.issuedAtMs, known.actor.session_id))
      return known.actor;
    const actor = await this.runStrategy(request);
    if (token) {
      const claims = decodeJwt(token);
      if (claims.exp) this.verified.set(token, { actor, exp: claims.exp, issuedAtMs: issuedAtMs(claims) });
    }
    return actor;
  }

  /** Runs the strategy on one request the way passport's middleware drives a strategy. */
  private runStrategy(request: { headers: Record<string, unknown> }): Promise<Actor> {
    return new Promise((resolve, reject) => {
      const attempt = Object.create(this) as Strategy & {
        success: (user: Actor) => void;
        fail: (info: unknown) => void;
        error: (err: unknown) => void;
      };
      attempt.success = resolve;
      attempt.fail = (info) => reject(authFailure(info));
      attempt.error = (err) => reject(authFailure(err));
      attempt.authenticate(request as never, {});
    });
  }

  /** Verifies a token outside an HTTP route (the WebSocket upgrade). */
  verifyToken(token: string): Promise<Actor> {
    return this.authenticateRequest({ headers: { authorization: `Bearer ${token}` } });
  }
}
