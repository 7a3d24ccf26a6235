import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { KeyRing } from '../keys/signing-keys.js';

const pem = (type: 'ec' | 'rsa', namedCurve?: string) =>
  generateKeyPairSync(
    type as 'ec',
    {
      ...(type === 'ec' ? { namedCurve: namedCurve ?? 'prime256v1' } : { modulusLength: 2048 }),
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    } as never,
  ).privateKey as unknown as string;

describe('the signing key ring', () => {
  it('takes P-256 keys with their own kids and signs with the first', async () => {
    const ring = new KeyRing([
      { kid: 'k2', privateKeyPem: pem('ec') },
      { kid: 'k1', privateKeyPem: pem('ec') },
    ]);
    expect((await ring.jwks()).map((k) => [k.kid, k.crv])).toEqual([
      ['k2', 'P-256'],
      ['k1', 'P-256'],
    ]);
  });

  it.each([
    [
      'another curve',
      [{ kid: 'p384', privateKeyPem: pem('ec', 'secp384r1') }],
      'Signing key "p384" must be an EC P-256 key (ES256)',
    ],
    [
      'an RSA key',
      [{ kid: 'rsa', privateKeyPem: pem('rsa') }],
      'Signing key "rsa" must be an EC P-256 key (ES256)',
    ],
    ['no kid', [{ kid: ' ', privateKeyPem: pem('ec') }], 'Signing key 1 has no kid'],
    [
      'a kid twice',
      [
        { kid: 'same', privateKeyPem: pem('ec') },
        { kid: 'same', privateKeyPem: pem('ec') },
      ],
      'Signing key kid "same" is used twice',
    ],
    [
      'an unreadable key',
      [{ kid: 'bad', privateKeyPem: 'not a key' }],
      'Signing key "bad" is not a readable PEM private key',
    ],
  ])('refuses %s at start, naming the kid and not the key', (_case, configs, message) => {
    expect(() => new KeyRing(configs)).toThrow(message);
  });
});
