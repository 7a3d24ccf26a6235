import { isIPv6 } from 'node:net';

/** The longest text of an address (an IPv6 address with a dotted IPv4 tail). */
export const ADDRESS_TEXT_MAX = 45;

/**
 * The part of a client address a limit or a share of a budget is counted against. One IPv6 host is
 * usually handed a whole /64 (2^64 addresses), so counting the full address would give it as many
 * budgets as it likes: an IPv6 address counts by its /64 prefix (`2001:db8:1:2:aaaa::1` is
 * `2001:db8:1:2::/64`), its zone id dropped (`fe80::1%eth0`: the same host on any interface). An IPv4
 * address, and one mapped into IPv6 (`::ffff:192.0.2.1`), counts as itself (`192.0.2.1`). Text that is no
 * IPv6 address (IPv4, or what a trusted proxy forwarded as is) is kept as given, lower-cased and bounded
 * like the longest address.
 */
export function addressGroup(ip: string): string {
  const address = ip.split('%')[0] ?? ip;
  if (!isIPv6(address)) return ip.toLowerCase().slice(0, ADDRESS_TEXT_MAX);
  const groups = ipv6Groups(address);
  const mappedIPv4 = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mappedIPv4) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` expanded and a dotted IPv4 tail converted. */
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
