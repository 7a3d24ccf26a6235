import { describe, expect, it } from '@jest/globals';
import { AppError } from '@portico/platform';
import {
  listCompaniesQuery,
  updateCompanyBody,
  updateCompanyProfileBody,
} from '../companies/companies.schemas.js';
import { themeBySlugQuery, updatePreferencesBody } from '../firms/firms.schemas.js';
import * as sessions from '../sessions/sessions.schemas.js';
import { setSignInMethodBody, updateProfileBody } from '../users/users.schemas.js';
import { pathId } from '../validation/fields.js';
import { nestsAtMost, parseInput } from '../validation/validation.rules.js';

function refusal(schema: Parameters<typeof parseInput>[0], input: unknown) {
  try {
    parseInput(schema, input);
  } catch (err) {
    if (err instanceof AppError)
      return { message: err.message, code: err.code, status: err.status, fields: err.extra.fields };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('sign-in input (spec 1 section 5.2)', () => {
  it("answers 'Email is missing' for an absent, blank or non-text email", () => {
    for (const input of [{}, { email: '' }, { email: '   ' }, { email: 42 }, null]) {
      expect(refusal(sessions.lookupEmailBody, input)).toEqual({
        message: 'Email is missing',
        code: 'invalid_input',
        status: 400,
        fields: { email: 'Email is missing' },
      });
    }
  });

  it('trims the email and drops unknown keys', () => {
    expect(parseInput(sessions.lookupEmailBody, { email: '  jane@example.com\t', admin: true })).toEqual({
      email: 'jane@example.com',
    });
  });

  it("answers 'Password is missing' and keeps spaces inside a password", () => {
    expect(refusal(sessions.verifyPasswordBody, { email: 'a@b.co' }).fields).toEqual({
      password: 'Password is missing',
    });
    expect(
      parseInput(sessions.verifyPasswordBody, { email: 'a@b.co', password: ' pass word ' }).password,
    ).toBe(' pass word ');
  });

  it('needs an email or a uid to send a code or a link', () => {
    expect(refusal(sessions.sendEmailCodeBody, {}).fields).toEqual({ email: 'Email is missing' });
    expect(parseInput(sessions.sendEmailCodeBody, { uid: 'u-1' })).toEqual({ uid: 'u-1' });
    expect(refusal(sessions.sendAuthLinkBody, { redirect: '/x' }).message).toBe('Email is missing');
  });

  it('needs a six-character code with its uid', () => {
    expect(refusal(sessions.verifyCodeBody, { code: '123456' }).fields).toEqual({ uid: 'uid is missing' });
    expect(refusal(sessions.verifyCodeBody, { uid: 'u', code: '12345' }).fields).toEqual({
      code: 'The code must be 6 characters',
    });
    expect(parseInput(sessions.verifyCodeBody, { uid: 'u', code: ' 123456 ' }).code).toBe('123456');
  });

  it('requires matching passwords to reset', () => {
    expect(
      refusal(sessions.resetPasswordBody, { token: 't', password: 'a', password_confirmation: 'b' }).fields,
    ).toEqual({
      password_confirmation: 'Passwords do not match',
    });
  });

  it('keys the account limit by the normalised email, else the uid', () => {
    expect(sessions.accountKeyOf({ email: ' Jane@Example.com ' })).toBe('email:jane@example.com');
    expect(sessions.accountKeyOf({ uid: 'u-1' })).toBe('uid:u-1');
    expect(sessions.accountKeyOf({ refresh_token: 'r' })).toBeUndefined();
    expect(sessions.accountKeyOf('nope')).toBeUndefined();
  });
});

describe('sign-in method setup (spec 2 section 5)', () => {
  it('asks for what each method needs', () => {
    expect(refusal(setSignInMethodBody, {}).fields).toEqual({ method: 'Please choose a sign-in method' });
    expect(refusal(setSignInMethodBody, { method: 'password' }).fields).toEqual({
      password: 'Password is missing',
    });
    expect(refusal(setSignInMethodBody, { method: 'sms' }).fields).toEqual({
      phone_number: 'Phone is required',
    });
    expect(refusal(setSignInMethodBody, { method: 'sms', phone_number: '555-1234' }).fields).toEqual({
      phone_number: 'Phone number must be 10 digits',
    });
  });

  it('sends phone numbers as digits only', () => {
    expect(
      parseInput(setSignInMethodBody, { method: 'sms', phone_number: '(555) 123-4567' }).phone_number,
    ).toBe('5551234567');
  });
});

describe('profile and entity input (spec 1 section 5.3)', () => {
  it('refuses an empty or malformed email on the profile', () => {
    expect(refusal(updateProfileBody, { email: ' ' }).fields).toEqual({ email: 'Email is required' });
    expect(refusal(updateProfileBody, { email: 'jane@' }).fields).toEqual({
      email: 'Invalid email address (jane@)',
    });
  });

  it('keeps profile phones as digits and allows clearing them', () => {
    expect(parseInput(updateProfileBody, { phone_number: '(555) 123-4567' }).phone_number).toBe('5551234567');
    expect(parseInput(updateProfileBody, { phone_number: '' }).phone_number).toBe('');
    expect(refusal(updateProfileBody, { phone_number: '12345' }).fields).toEqual({
      phone_number: 'Phone number must be 10 digits',
    });
  });

  it('applies the entity name rules with their exact messages', () => {
    expect(refusal(updateCompanyBody, { name: 'A/B' }).message).toBe(
      'Entity Name cannot contain a "/" character.',
    );
    expect(refusal(updateCompanyBody, { name: 'A "B"' }).message).toBe(
      'Entity Name cannot contain a """ character.',
    );
    expect(refusal(updateCompanyBody, { name: '  ' }).message).toBe('Entity Name is required');
  });

  it('does not let a client change the flags only an advisor sets', () => {
    expect(
      parseInput(updateCompanyProfileBody, { name: 'Acme', readonly_access: false, inactive: false }),
    ).toEqual({
      name: 'Acme',
    });
    expect(parseInput(updateCompanyBody, { readonly_access: true })).toEqual({ readonly_access: true });
  });
});

describe('control characters (PostgreSQL refuses NUL in text)', () => {
  const refused = 'Must not contain control characters';

  it('refuses them in ids, slugs, searches, names and profile fields with a 400', () => {
    expect(refusal(pathId(), 'a\u0000b')).toMatchObject({ status: 400, message: refused });
    expect(refusal(themeBySlugQuery, { slug: '\u0000' }).fields).toEqual({ slug: refused });
    expect(refusal(listCompaniesQuery, { search_term: 'acme\u0000' }).fields).toEqual({
      search_term: refused,
    });
    expect(parseInput(listCompaniesQuery, { search_term: 'Acme\tLLC' }).search_term).toBe('Acme\tLLC');
    expect(refusal(listCompaniesQuery, { entity_type: '\u0001' }).fields).toEqual({ entity_type: refused });
    expect(refusal(updateCompanyBody, { name: 'Acme\u0000' }).fields).toEqual({ name: refused });
    expect(refusal(updateProfileBody, { fname: 'Jo\nhn' }).fields).toEqual({ fname: refused });
    expect(refusal(sessions.lookupEmailBody, { email: 'a\u0000@b.co' }).fields).toEqual({ email: refused });
  });

  it('keeps line breaks and tabs in typed text, not NUL', () => {
    expect(parseInput(updateProfileBody, { out_of_office_message: 'Away\n\tback Monday' })).toEqual({
      out_of_office_message: 'Away\n\tback Monday',
    });
    expect(refusal(updateProfileBody, { out_of_office_message: 'Away\u0000' }).fields).toEqual({
      out_of_office_message: refused,
    });
  });
});

describe('nesting of free-form JSON (firm preferences)', () => {
  const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;

  it('takes preferences as deep as custom elements need', () => {
    const preferences = {
      drop_link_enabled: false,
      customElements: { header: { links: [{ label: 'Home' }] } },
    };
    expect(parseInput(updatePreferencesBody, { preferences })).toEqual({ preferences });
  });

  it('refuses deeper nesting with a 400, without exhausting the stack on thousands of levels', () => {
    for (const depth of [9, 100_000])
      expect(
        refusal(updatePreferencesBody, { preferences: { customElements: nested(depth) } }),
      ).toMatchObject({
        status: 400,
        fields: { preferences: 'Preferences are nested too deeply' },
      });
    expect(nestsAtMost(nested(3), 3)).toBe(true);
    expect(nestsAtMost(nested(4), 3)).toBe(false);
    expect(nestsAtMost('text', 0)).toBe(true);
  });
});
