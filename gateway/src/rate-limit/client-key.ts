import { addressGroup } from '@portico/platform';

/**
 * The part of a client address one budget is counted against (`addressGroup`): an IPv6 address by its
 * /64 prefix, since one host is usually handed a whole /64 and a per-address key gave it unlimited
 * budgets; an IPv4 address, and one mapped into IPv6 (`::ffff:192.0.2.1`), as itself. The plugin's own
 * key generator groups the same way, but every limit here has its own generator, which skipped it.
 */
export function clientKey(request: { ip: string }): string {
  return addressGroup(request.ip);
}
