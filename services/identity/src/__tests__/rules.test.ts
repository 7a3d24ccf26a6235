import { describe, expect, it } from '@jest/globals';
import { canEditUser, canSeeUser } from '../access/visibility.js';
import {
  addressLabels,
  entityTypeOptions,
  isKnownCountry,
  validateEntityName,
  validateEntityType,
} from '../companies/company.rules.js';
import { randomCode } from '../crypto/secrets.js';
import {
  changedPreferenceKeys,
  FIRM_PREFERENCE_DEFAULTS,
  mergePreferences,
  storedPreferences,
  validatePreferences,
} from '../firms/preferences.js';
import type { UserRow } from '../schema.js';
import { safeRedirect } from '../sessions/sign-in.service.js';
import {
  isValidEmail,
  maskEmail,
  maskPhone,
  phoneDigits,
  validatePassword,
  validatePhone,
} from '../users/profile.rules.js';

describe('password rules (spec 2 s.5)', () => {
  it.each([
    ['', 'Password is missing'],
    ['Short-1!', 'Password must be greater than 10 characters'],
    ['lowercase-only-1!', 'Password must contain at least one uppercase letter'],
    ['UPPERCASE-ONLY-1!', 'Password must contain at least one lowercase letter'],
    ['No-Numbers-Here!', 'Password must contain at least one number'],
    ['NoSpecials12345', 'Password must contain at least one special character (#?!@$%^&*-)'],
  ])('%p -> %p', (password, message) => {
    expect(validatePassword(password)).toBe(message);
  });

  it('accepts a password meeting every rule and checks the confirmation', () => {
    expect(validatePassword('Good-Password-1')).toBeUndefined();
    expect(validatePassword('Good-Password-1', 'Good-Password-2')).toBe('Passwords do not match');
  });
});

describe('phones and emails', () => {
  it('stores digits only and needs ten of them', () => {
    expect(phoneDigits('(415) 555-0101')).toBe('4155550101');
    expect(validatePhone('')).toBe('Phone is required');
    expect(validatePhone('555-0101')).toBe('Phone number must be 10 digits');
    expect(validatePhone('(415) 555-0101')).toBeUndefined();
  });

  it('needs a two-letter top-level domain', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a@b.c')).toBe(false);
    expect(isValidEmail('a b@c.com')).toBe(false);
  });

  it('masks what the lookup shows', () => {
    expect(maskEmail('jane@example.com')).toBe('j***@example.com');
    expect(maskPhone('4155550101')).toBe('(***) ***-0101');
  });

  it('makes uniform six-digit codes', () => {
    const codes = Array.from({ length: 200 }, randomCode);
    expect(codes.every((c) => /^\d{6}$/.test(c))).toBe(true);
    expect(new Set(codes).size).toBeGreaterThan(190);
  });
});

describe('entity rules', () => {
  it('names', () => {
    expect(validateEntityName('')).toBe('Entity Name is required');
    expect(validateEntityName('a/b')).toBe('Entity Name cannot contain a "/" character.');
    expect(validateEntityName('a"b')).toBe('Entity Name cannot contain a " character.');
    expect(validateEntityName('Acme, Inc.')).toBeUndefined();
  });

  it('types, with custom ones and Individual (Not Allowed)', () => {
    const firm = { customEntityTypes: ['Estate'], individualAllowed: false };
    expect(validateEntityType('Estate', firm)).toBeUndefined();
    expect(validateEntityType('Individual', firm)).toBe('Individual (Not Allowed)');
    expect(validateEntityType('LLP', firm)).toBe('Choose an entity type from the list');
    expect(entityTypeOptions(firm)[0]).toEqual({
      value: 'Individual',
      label: 'Individual (Not Allowed)',
      disabled: true,
    });
  });

  it('countries and the CA labels', () => {
    expect(isKnownCountry('CA')).toBe(true);
    expect(isKnownCountry('XX')).toBe(false);
    expect(addressLabels('CA')).toEqual({ state: 'Province/Territory', zip: 'Postal Code' });
    expect(addressLabels('US')).toEqual({ state: 'State', zip: 'Zip Code' });
  });
});

describe('firm preferences', () => {
  it('merge stored values over the defaults and drop wrong types', () => {
    const merged = mergePreferences({ tour_enabled: false, communication_disabled: 'yes', stale_key: 1 });
    expect(merged.tour_enabled).toBe(false);
    expect(merged.communication_disabled).toBe(false);
    expect('stale_key' in merged).toBe(false);
    expect(Object.keys(merged)).toEqual(Object.keys(FIRM_PREFERENCE_DEFAULTS));
  });

  it('validate keys, types and the theme colour', () => {
    expect(validatePreferences({ tour_enabled: true })).toEqual({});
    expect(validatePreferences({ nope: 1, export_to_platforms: 'x', theme: { primary: 'blue' } })).toEqual({
      nope: 'Unknown preference',
      export_to_platforms: 'Must be a list',
      theme: 'theme.primary must be a colour like #1f5fa8',
    });
  });

  it('take text only in lists, only primary in the theme, and bounded custom elements', () => {
    expect(
      validatePreferences({
        export_to_platforms: ['lacerte', 42],
        theme: { primary: '#112233', accent: 5 },
        customElements: { text: 'x'.repeat(20_001) },
      }),
    ).toEqual({
      export_to_platforms: 'Must be a list of text',
      theme: 'theme takes only primary, a colour like #1f5fa8',
      customElements: 'Must be at most 20,000 characters as JSON',
    });
    expect(validatePreferences({ export_to_platforms: ['lacerte'], theme: { primary: '#112233' } })).toEqual(
      {},
    );
  });

  it('bound the export platforms: how many, and how long each name is', () => {
    const names = (n: number, length = 8) => Array.from({ length: n }, (_, i) => `${i}`.padEnd(length, 'x'));
    expect(validatePreferences({ export_to_platforms: names(50, 100) })).toEqual({});
    expect(validatePreferences({ export_to_platforms: names(51) })).toEqual({
      export_to_platforms: 'Must be at most 50 platforms',
    });
    expect(validatePreferences({ export_to_platforms: ['lacerte', 'x'.repeat(101)] })).toEqual({
      export_to_platforms: 'Each platform must be at most 100 characters',
    });
    // A list of something else is told that first.
    expect(validatePreferences({ export_to_platforms: [...names(60), 7] })).toEqual({
      export_to_platforms: 'Must be a list of text',
    });
  });

  it('keep in the stored row only what differs from the defaults', () => {
    expect(storedPreferences(mergePreferences({ tour_enabled: false, drop_link_enabled: true }))).toEqual({
      tour_enabled: false,
    });
  });

  it('report the keys that changed', () => {
    const before = mergePreferences({});
    expect(changedPreferenceKeys(before, mergePreferences({ drop_link_enabled: false }))).toEqual([
      'drop_link_enabled',
    ]);
  });
});

describe('redirects after sign-in', () => {
  it('keeps same-site paths only', () => {
    expect(safeRedirect('/documents/abc?path=/x')).toBe('/documents/abc?path=/x');
    expect(safeRedirect('//evil.example')).toBe('');
    expect(safeRedirect('https://evil.example')).toBe('');
    expect(safeRedirect('/\\evil.example')).toBe('');
    expect(safeRedirect('/documents\\x')).toBe('');
  });
});

describe('who sees whom', () => {
  const user = (over: Partial<UserRow>) =>
    ({ id: 'u', firmId: 'f', isAdvisor: false, firmGroupId: null, ...over }) as UserRow;
  const groups = { has_firm_groups: true };

  it('clients see only themselves; another firm is never visible', () => {
    expect(canSeeUser({ user_id: 'c', firm_id: 'f', role: 'client' }, user({ id: 'c' }), groups)).toBe(true);
    expect(canSeeUser({ user_id: 'c', firm_id: 'f', role: 'client' }, user({ id: 'd' }), groups)).toBe(false);
    expect(
      canSeeUser({ user_id: 'p', firm_id: 'g', role: 'advisor', firm_access: 'partner' }, user({}), groups),
    ).toBe(false);
  });

  it('group advisors see their group and ungrouped users, none without a group', () => {
    const inGroup = {
      user_id: 'a',
      firm_id: 'f',
      role: 'advisor' as const,
      firm_access: 'group' as const,
      firm_group_id: 'g1',
    };
    expect(canSeeUser(inGroup, user({ firmGroupId: 'g1' }), groups)).toBe(true);
    expect(canSeeUser(inGroup, user({ firmGroupId: null }), groups)).toBe(true);
    expect(canSeeUser(inGroup, user({ firmGroupId: 'g2' }), groups)).toBe(false);
    expect(canSeeUser({ ...inGroup, firm_group_id: undefined }, user({}), groups)).toBe(false);
    expect(canSeeUser(inGroup, user({ firmGroupId: 'g2' }), { has_firm_groups: false })).toBe(true);
  });

  it('only partners and admins edit another firm user', () => {
    const full = { user_id: 'a', firm_id: 'f', role: 'advisor' as const, firm_access: 'full' as const };
    expect(canEditUser(full, user({ isAdvisor: true }), groups)).toBe(false);
    expect(canEditUser({ ...full, firm_access: 'admin' }, user({ isAdvisor: true }), groups)).toBe(true);
    expect(canEditUser(full, user({}), groups)).toBe(true);
  });
});
