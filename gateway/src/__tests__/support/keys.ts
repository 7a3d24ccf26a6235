import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export interface TestKey {
  kid: string;
  publicJwk: JWK & { kid: string };
  sign(claims: Record<string, unknown>, options?: SignOptions): Promise<string>;
}

export interface SignOptions {
  expiresIn?: string | number;
  issuedAt?: number;
  /** Other than identity's, to test that the gateway refuses them. */
  issuer?: string;
  audience?: string;
  notBefore?: number;
}

/** A real ES256 key pair, signing tokens the way identity does (kid header, iss, aud, sub, exp). */
export async function createTestKey(kid: string): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid };
  return {
    kid,
    publicJwk,
    sign: async (claims, options = {}) => {
      const { sub, ...rest } = claims as { sub: string };
      const jwt = new SignJWT(rest)
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
        .setSubject(sub)
        .setIssuer(options.issuer ?? 'portico-identity')
        .setAudience(options.audience ?? 'portico')
        .setIssuedAt(options.issuedAt)
        .setExpirationTime(options.expiresIn ?? '15m');
      if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
      return jwt.sign(privateKey);
    },
  };
}

export const advisorClaims = {
  sub: 'user-partner',
  firm_id: 'firm-1',
  role: 'advisor',
  firm_access: 'partner',
  readonly_access: false,
  sid: 'session-1',
};

export const clientClaims = {
  sub: 'user-client',
  firm_id: 'firm-1',
  role: 'client',
  readonly_access: false,
  sid: 'session-2',
};
