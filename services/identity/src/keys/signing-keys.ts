import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { Actor } from '@portico/platform';
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT } from 'jose';

export const JWT_ALG = 'ES256';
export const JWT_ISSUER = 'portico-identity';
export const JWT_AUDIENCE = 'portico';

export interface SigningKeyConfig {
  kid: string;
  privateKeyPem: string;
}

interface LoadedKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

/**
 * The signing keys: the first signs, every one is published in the JWKS. Rotation without signing
 * anyone out: add the new key second, deploy, move it first, deploy, drop the old one after the
 * access-token lifetime.
 */
export class KeyRing {
  private readonly keys: LoadedKey[];

  /**
   * Checks every key at start, naming its kid (never the key): a key that could not sign ES256 (another
   * curve, RSA) or a missing or repeated kid was accepted and failed only once moved first in a rotation,
   * failing every sign-in, or made the gateway check tokens against another key cached under that kid.
   */
  constructor(configs: SigningKeyConfig[]) {
    if (configs.length === 0) throw new Error('At least one signing key is needed');
    const kids = new Set<string>();
    this.keys = configs.map((c, i) => {
      if (typeof c?.kid !== 'string' || !c.kid.trim()) throw new Error(`Signing key ${i + 1} has no kid`);
      if (kids.has(c.kid)) throw new Error(`Signing key kid "${c.kid}" is used twice`);
      kids.add(c.kid);
      let privateKey: KeyObject;
      try {
        privateKey = createPrivateKey(c.privateKeyPem);
      } catch {
        throw new Error(`Signing key "${c.kid}" is not a readable PEM private key`);
      }
      if (
        privateKey.asymmetricKeyType !== 'ec' ||
        privateKey.asymmetricKeyDetails?.namedCurve !== 'prime256v1'
      )
        throw new Error(`Signing key "${c.kid}" must be an EC P-256 key (${JWT_ALG})`);
      return { kid: c.kid, privateKey, publicKey: createPublicKey(privateKey) };
    });
  }

  static parse(json: string): KeyRing {
    const parsed = JSON.parse(json) as SigningKeyConfig[];
    if (!Array.isArray(parsed))
      throw new Error('JWT_SIGNING_KEYS must be a JSON array of {kid, privateKeyPem}');
    return new KeyRing(parsed);
  }

  /** A fresh P-256 key for development and tests. */
  static async generateConfig(kid = `dev-${Date.now()}`): Promise<SigningKeyConfig> {
    const { privateKey } = await generateKeyPair(JWT_ALG, { extractable: true });
    return { kid, privateKeyPem: await exportPKCS8(privateKey) };
  }

  async signAccessToken(actor: Actor, ttlSeconds: number): Promise<string> {
    const key = this.keys[0] as LoadedKey;
    return new SignJWT({
      firm_id: actor.firm_id,
      role: actor.role,
      ...(actor.firm_access ? { firm_access: actor.firm_access } : {}),
      ...(actor.firm_group_id ? { firm_group_id: actor.firm_group_id } : {}),
      readonly_access: !!actor.readonly_access,
      ...(actor.session_id ? { sid: actor.session_id } : {}),
      // The issue time to the millisecond: a revocation in the same second as the token's `iat` must
      // still tell whether the token came before it (see the gateway's RevocationList).
      iat_ms: Date.now(),
    })
      .setProtectedHeader({ alg: JWT_ALG, kid: key.kid, typ: 'JWT' })
      .setSubject(actor.user_id)
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${ttlSeconds}s`)
      .sign(key.privateKey);
  }

  async jwks() {
    return Promise.all(
      this.keys.map(async (k) => {
        const jwk = await exportJWK(k.publicKey);
        return {
          kid: k.kid,
          kty: jwk.kty ?? 'EC',
          crv: jwk.crv ?? 'P-256',
          x: jwk.x ?? '',
          y: jwk.y ?? '',
          alg: JWT_ALG,
          use: 'sig',
        };
      }),
    );
  }
}
