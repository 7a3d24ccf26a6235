import { createHash } from 'node:crypto';
import { isIPv6 } from 'node:net';

/**
 * The header the gateway sends every call with: the caller's address as it saw it (Kong's, behind the
 * proxies it trusts). Only the gateway publishes requests to the services.
 */
export const CLIENT_IP_HEADER = 'x-portico-client-ip';

/**
 * The part of an address one share of a drop link's budget is counted against, as the gateway groups
 * addresses for its own limits: an IPv6 address by its /64 (one host is usually handed a whole /64, and
 * the full address would give it as many shares as it likes), an IPv4 address, also one mapped into IPv6
 * ('::ffff:192.0.2.1'), as itself. A call without an address (not through the gateway) is ''.
 */
export function addressGroup(ip: string | undefined): string {
  const address = (ip ?? '').trim().split('%')[0] ?? '';
  if (!isIPv6(address)) return address.toLowerCase().slice(0, 45);
  const groups = ipv6Groups(address);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, '::' expanded and a dotted IPv4 tail converted. */
function ipv6Groups(address: string): number[] {
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((piece) => {
          if (!piece.includes('.')) return [Number.parseInt(piece, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = piece.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head = '', tail] = address.toLowerCase().split('::');
  const first = parse(head);
  if (tail === undefined) return first;
  const last = parse(tail);
  return [...first, ...new Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * What the uploads table keeps of a drop-off caller: a hash of the firm and the address group, enough to
 * count one caller's links and never the address itself.
 */
export const callerOf = (firmId: string, ip: string | undefined) =>
  createHash('sha256')
    .update(`${firmId}\n${addressGroup(ip)}`)
    .digest('base64url')
    .slice(0, 22);
