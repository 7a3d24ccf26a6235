import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

export interface TestKey {
  kid: string;
  publicJwk: JWK & { kid: string };
  sign(
    claims: Record<string, unknown>,
    options?: { expiresIn?: string | number; issuedAt?: number },
  ): Promise<string>;
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
        .setIssuer('portico-identity')
        .setAudience('portico')
        .setIssuedAt(options.issuedAt)
        .setExpirationTime(options.expiresIn ?? '15m');
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
