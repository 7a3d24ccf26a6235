import { describe, expect, it } from '@jest/globals';
import { portalLink, signInPageLink } from '../firms/sign-in-link.js';

describe('emailed links', () => {
  it('carry the one-time secret in the fragment, which no server sees, and the firm in the query', () => {
    const link = new URL(signInPageLink('https://portal.example/', 'demo-cpa', { token: 'sec-ret_1' }));
    expect(link.href).toBe('https://portal.example/signin?firm=demo-cpa#token=sec-ret_1');
    // What a request for the link sends (and the edge logs): no token.
    expect(`${link.pathname}${link.search}`).toBe('/signin?firm=demo-cpa');
    expect(link.searchParams.has('token')).toBe(false);
    expect(new URLSearchParams(link.hash.slice(1)).get('token')).toBe('sec-ret_1');
  });

  it('leave the query out without a firm, and put an email confirmation token in the fragment too', () => {
    expect(signInPageLink('http://portal.test', '', { email_token: 'abc' })).toBe(
      'http://portal.test/signin#email_token=abc',
    );
    const profile = new URL(portalLink('http://portal.test/', '/admin-profile', { email_token: 'abc' }));
    expect(profile.search).toBe('');
    expect(profile.pathname).toBe('/admin-profile');
    expect(profile.hash).toBe('#email_token=abc');
  });
});
