import { describe, expect, it } from '@jest/globals';
import { addressGroup } from '../net/address-group.js';

describe('the group of a client address', () => {
  it('is an IPv6 address by its /64, an IPv4 one (mapped into IPv6 or not) as itself', () => {
    expect(addressGroup('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:DB8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(addressGroup('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::1')).toBe('0:0:0:0::/64');
    expect(addressGroup('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('::ffff:c000:201')).toBe('192.0.2.1');
    expect(addressGroup('::ffff:192.0.2.1%eth0')).toBe('192.0.2.1');
    expect(addressGroup('192.0.2.1')).toBe('192.0.2.1');
  });

  it('keeps text that is no IPv6 address as given, lower-cased and no longer than any address', () => {
    expect(addressGroup('Proxy-Name')).toBe('proxy-name');
    expect(addressGroup('192.0.2.1%x')).toBe('192.0.2.1%x');
    expect(addressGroup('')).toBe('');
    // Text a trusted proxy forwarded that is no address at all is kept short.
    expect(addressGroup(`X${'x'.repeat(1_000)}`)).toHaveLength(45);
  });
});
