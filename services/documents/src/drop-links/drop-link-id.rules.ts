import { createHash } from 'node:crypto';
import { isUuid } from '@portico/platform';

function keystream(key: string, length: number): Buffer {
  const out = Buffer.alloc(length);
  let block = createHash('sha256').update(key).digest();
  for (let i = 0; i < length; i++) {
    if (i > 0 && i % block.length === 0) block = createHash('sha256').update(block).digest();
    out[i] = block[i % block.length] as number;
  }
  return out;
}

/**
 * The firm drop link id (spec 1 s.9): the firm id and name, obfuscated reversibly and URL-safe. Not a
 * secret: it only has to keep the id from being read or guessed at a glance; the decoded firm must
 * still exist under that name.
 */
export function encodeDropLinkId(firmId: string, firmName: string, key: string): string {
  const plain = Buffer.from(`${firmId}:${firmName}`, 'utf8');
  const mask = keystream(key, plain.length);
  for (let i = 0; i < plain.length; i++) plain[i] = (plain[i] as number) ^ (mask[i] as number);
  return plain.toString('base64url');
}

export function decodeDropLinkId(id: string, key: string): { firmId: string; firmName: string } | undefined {
  if (!/^[A-Za-z0-9_-]{40,2000}$/.test(id)) return undefined;
  const bytes = Buffer.from(id, 'base64url');
  const mask = keystream(key, bytes.length);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (bytes[i] as number) ^ (mask[i] as number);
  const text = bytes.toString('utf8');
  const colon = text.indexOf(':');
  const firmId = text.slice(0, colon);
  if (colon !== 36 || !isUuid(firmId)) return undefined;
  return { firmId: firmId.toLowerCase(), firmName: text.slice(colon + 1) };
}
