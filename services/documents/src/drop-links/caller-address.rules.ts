import { createHash } from 'node:crypto';
import { addressGroup } from '@portico/platform';

/**
 * The header the gateway sends every call with: the caller's address as it saw it (Kong's, behind the
 * proxies it trusts). Only the gateway publishes requests to the services.
 */
export const CLIENT_IP_HEADER = 'x-portico-client-ip';

/**
 * The part of an address one share of a drop link's budget is counted against, as the gateway groups
 * addresses for its own limits (`addressGroup`: an IPv6 address by its /64, an IPv4 address, also one
 * mapped into IPv6, as itself). The address is trimmed and its zone id dropped first, whatever it is,
 * as the stored caller hashes were made. A call without an address (not through the gateway) is ''.
 */
export function callerAddressGroup(ip: string | undefined): string {
  return addressGroup((ip ?? '').trim().split('%')[0] ?? '');
}

/**
 * What the uploads table keeps of a drop-off caller: a hash of the firm and the address group, enough to
 * count one caller's links and never the address itself.
 */
export const callerOf = (firmId: string, ip: string | undefined) =>
  createHash('sha256')
    .update(`${firmId}\n${callerAddressGroup(ip)}`)
    .digest('base64url')
    .slice(0, 22);
