import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { type Actor, AppError } from '@portico/platform';
import { decodeProtectedHeader } from 'jose';
import passport from 'passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { tokenExpired, unauthenticated } from './auth.errors.js';
import { claimsToActor, TOKEN_ALGORITHMS, TOKEN_AUDIENCE, TOKEN_ISSUER } from './claims.rules.js';
import { JwksCache } from './jwks.cache.js';
import { RevocationList } from './revocations.js';

export const JWT_STRATEGY = 'jwt';

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
  constructor(
    @Inject(JwksCache) keys: JwksCache,
    @Inject(RevocationList) private readonly revocations: RevocationList,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKeyProvider: (
        _request: unknown,
        rawJwt: string,
        done: (err: unknown, key?: string) => void,
      ) => {
        keys.keyFor(kidOf(rawJwt)).then(
          (key) => done(null, key),
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

  validate(payload: { iat?: number }): Actor {
    const actor = claimsToActor(payload);
    if (this.revocations.isRevoked(actor.user_id, payload.iat)) throw unauthenticated();
    return actor;
  }

  /**
   * Runs the strategy on one request, the way passport's middleware drives a strategy: the extracted
   * token is verified and the actor returned, or the 401/503 to answer is thrown.
   */
  authenticateRequest(request: { headers: Record<string, unknown> }): Promise<Actor> {
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
