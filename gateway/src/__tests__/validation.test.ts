import { describe, expect, it } from '@jest/globals';
import { AppError } from '@portico/platform';
import { z } from 'zod';
import * as companies from '../companies/companies.schemas.js';
import * as documents from '../documents/documents.schemas.js';
import * as firms from '../firms/firms.schemas.js';
import * as sessions from '../sessions/sessions.schemas.js';
import * as users from '../users/users.schemas.js';
import { pathId } from '../validation/fields.js';
import { jsonFault, parseInput } from '../validation/validation.rules.js';

const { listCompaniesQuery, updateCompanyBody, updateCompanyProfileBody } = companies;
const { themeBySlugQuery, updatePreferencesBody } = firms;
const { setSignInMethodBody, updateProfileBody } = users;

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
    // The spec's key for the firm and the lookup's are both taken, as the one identity reads.
    for (const firm of [{ accountantId: 'f-1' }, { accountant_id: 'f-1' }])
      expect(parseInput(sessions.sendAuthLinkBody, { uid: 'u-1', redirect: '/x', ...firm })).toEqual({
        uid: 'u-1',
        redirect: '/x',
        accountant_id: 'f-1',
      });
  });

  it('needs a six-digit code with its uid', () => {
    expect(refusal(sessions.verifyCodeBody, { code: '123456' }).fields).toEqual({
      uid: 'Something went wrong',
    });
    for (const wrong of ['12345', '12345a'])
      expect(refusal(sessions.verifyCodeBody, { uid: 'u', code: wrong }).fields).toEqual({
        code: 'The verification code must be 6 digits',
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

  it('keys the account limits by each field that names an account, the email normalised', () => {
    expect(sessions.accountKeyOf({ email: ' Jane@Example.com ' }, 'email')).toBe('email:jane@example.com');
    expect(sessions.accountKeyOf({ uid: 'u-1' }, 'uid')).toBe('uid:u-1');
    expect(sessions.accountKeyOf({ challenge_token: 'c-1' }, 'challenge_token')).toBe('challenge_token:c-1');
    // A uid with a made-up email counts against the uid too.
    const both = { uid: 'u-1', email: 'made-up@example.com' };
    expect(sessions.ACCOUNT_FIELDS.map((f) => sessions.accountKeyOf(both, f))).toEqual([
      'email:made-up@example.com',
      'uid:u-1',
      undefined,
    ]);
    expect(sessions.accountKeyOf({ refresh_token: 'r' }, 'email')).toBeUndefined();
    expect(sessions.accountKeyOf('nope', 'uid')).toBeUndefined();
  });
});

describe('sign-in method setup (spec 2 sections 5 and 7)', () => {
  it("asks for what each method needs, under the spec's keys", () => {
    expect(refusal(setSignInMethodBody, {}).fields).toEqual({
      signInMethod: 'Please choose a sign-in method',
    });
    expect(refusal(setSignInMethodBody, { signInMethod: 'password' }).fields).toEqual({
      newPassword: 'Password is missing',
    });
    expect(refusal(setSignInMethodBody, { signInMethod: 'sms' }).fields).toEqual({
      phoneNumber: 'Phone is required',
    });
    expect(refusal(setSignInMethodBody, { signInMethod: 'sms', phoneNumber: '555-1234' }).fields).toEqual({
      phoneNumber: 'Phone number must be 10 digits',
    });
  });

  it('names in a refusal the key the caller sent, and refuses a body with both names of one value', () => {
    expect(refusal(setSignInMethodBody, { method: 'password' }).fields).toEqual({
      password: 'Password is missing',
    });
    expect(refusal(setSignInMethodBody, { method: 'sms', phone_number: '555' }).fields).toEqual({
      phone_number: 'Phone number must be 10 digits',
    });
    expect(
      refusal(setSignInMethodBody, { signInMethod: 'email', method: 'password', password: 'x' }).fields,
    ).toEqual({ signInMethod: 'Send signInMethod or method, not both' });
  });

  it("gives identity its contract's keys, from the spec's or from the ones older shells send", () => {
    const spec = parseInput(setSignInMethodBody, { signInMethod: 'sms', phoneNumber: '(555) 123-4567' });
    const older = parseInput(setSignInMethodBody, { method: 'sms', phone_number: '(555) 123-4567' });
    for (const body of [spec, older]) expect(body).toEqual({ method: 'sms', phone_number: '5551234567' });
    expect(
      parseInput(setSignInMethodBody, {
        signInMethod: 'password',
        newPassword: 'Picked-Secret-42',
        password_confirmation: 'Picked-Secret-42',
      }),
    ).toEqual({
      method: 'password',
      password: 'Picked-Secret-42',
      password_confirmation: 'Picked-Secret-42',
    });
  });
});

describe('profile and entity input (spec 1 section 5.3)', () => {
  it('refuses an empty or malformed email on the profile', () => {
    expect(refusal(updateProfileBody, { email: ' ' }).fields).toEqual({ email: 'Email is required' });
    // The fixed message, as the service words it: what was typed is not echoed back.
    expect(refusal(updateProfileBody, { email: 'jane@<b>' }).fields).toEqual({
      email: 'Invalid email address',
    });
  });

  it("takes the addresses the spec's email rule takes, as identity and the portal's forms do", () => {
    for (const email of ['jane&john@example.com', 'josé@example.fr', "o'brien+tax@mail.example.co.uk"])
      expect(parseInput(updateProfileBody, { email: ` ${email} ` }).email).toBe(email);
    // A top-level domain of at least two letters, no spaces, one '@'.
    for (const email of ['jane@example', 'jane@example.c', 'jane doe@example.com', 'jane@@example.com'])
      expect(refusal(updateProfileBody, { email }).fields).toEqual({ email: 'Invalid email address' });
  });

  it('keeps profile phones as digits and allows clearing them', () => {
    expect(parseInput(updateProfileBody, { phone_number: '(555) 123-4567' }).phone_number).toBe('5551234567');
    expect(parseInput(updateProfileBody, { phone_number: '' }).phone_number).toBe('');
    expect(refusal(updateProfileBody, { phone_number: '12345' }).fields).toEqual({
      phone_number: 'Phone number must be 10 digits',
    });
    // Blank clears it; text without digits is not a way to clear it.
    expect(parseInput(updateProfileBody, { phone_number: '  ' }).phone_number).toBe('');
    expect(refusal(updateProfileBody, { phone_number: 'call me' }).fields).toEqual({
      phone_number: 'Phone number must be 10 digits',
    });
    // The work phone alike: 'call me' would have blanked a stored one.
    expect(refusal(updateProfileBody, { work_phone_number: 'call me' }).fields).toEqual({
      work_phone_number: 'Phone number must be 10 digits',
    });
    expect(parseInput(updateProfileBody, { work_phone_number: '' }).work_phone_number).toBe('');
  });

  it('applies the entity name rules with their exact messages', () => {
    expect(refusal(updateCompanyBody, { name: 'A/B' }).message).toBe(
      'Entity Name cannot contain a "/" character.',
    );
    expect(refusal(updateCompanyBody, { name: 'A "B"' }).message).toBe(
      'Entity Name cannot contain a " character.',
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

  it('takes an out-of-office change as the switch and its message, nothing else of the profile', () => {
    const { outOfOfficeBody } = users;
    expect(
      parseInput(outOfOfficeBody, { out_of_office: true, out_of_office_message: 'Back Monday', fname: 'X' }),
    ).toEqual({ out_of_office: true, out_of_office_message: 'Back Monday' });
    expect(refusal(outOfOfficeBody, { out_of_office_message: 'Back Monday' }).fields).toEqual({
      out_of_office: 'Must be true or false',
    });
    expect(refusal(outOfOfficeBody, { out_of_office: 'yes' }).fields).toEqual({
      out_of_office: 'Must be true or false',
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

  it('takes the preferences version the settings page was loaded at, a whole number, or none', () => {
    const preferences = { tour_enabled: false };
    expect(parseInput(updatePreferencesBody, { preferences, preferences_version: 3 })).toEqual({
      preferences,
      preferences_version: 3,
    });
    expect(parseInput(updatePreferencesBody, { preferences })).toEqual({ preferences });
    for (const preferences_version of [-1, 1.5, '3', 2 ** 31])
      expect(refusal(updatePreferencesBody, { preferences, preferences_version })).toMatchObject({
        status: 400,
        fields: { preferences_version: expect.any(String) },
      });
  });

  it('refuses deeper nesting with a 400, without exhausting the stack on thousands of levels', () => {
    for (const depth of [9, 100_000])
      expect(
        refusal(updatePreferencesBody, { preferences: { customElements: nested(depth) } }),
      ).toMatchObject({
        status: 400,
        fields: { preferences: 'Preferences are nested too deeply' },
      });
    expect(jsonFault(nested(3), 3)).toBeUndefined();
    expect(jsonFault(nested(4), 3)).toBe('too_deep');
    expect(jsonFault('text', 0)).toBeUndefined();
  });

  it('refuses a number JSON cannot write (1e400 parses as Infinity) with a 400 on the field', () => {
    for (const body of [
      '{"preferences":{"in_app_banner_text":1e400}}',
      '{"preferences":{"customElements":{"header":{"links":[{"width":-1e400}]}}}}',
    ])
      expect(refusal(updatePreferencesBody, JSON.parse(body))).toMatchObject({
        status: 400,
        fields: { preferences: 'Preferences hold a number that is out of range' },
      });
    expect(jsonFault({ a: [Number.NaN] }, 8)).toBe('not_finite');
    expect(jsonFault({ a: [1e308, -0, 0.5] }, 8)).toBeUndefined();
    expect(
      refusal(updatePreferencesBody, JSON.parse('{"preferences":{},"preferences_version":1e400}')),
    ).toMatchObject({
      fields: { preferences_version: expect.any(String) },
    });
  });
});

describe('extracted documents named by their id alone (spec 1 s.7.6, spec 2 s.7)', () => {
  it('takes a split and a removal without a company, and checks one that is sent', () => {
    const documents_ = [{ name: 'W-2', pages: '1-2' }];
    expect(parseInput(documents.splitBody, { documents: documents_ })).toEqual({
      documents: [{ name: 'W-2', differentiator: '', pages: '1-2' }],
    });
    expect(parseInput(documents.optionalCompany, {})).toEqual({});
    expect(refusal(documents.splitBody, { companyId: ' ', documents: documents_ }).fields).toEqual({
      companyId: 'Company is missing',
    });
    expect(refusal(documents.splitBody, { documents: [] }).fields).toEqual({
      documents: 'Enter pages like 1-3, 5',
    });
  });
});

describe('query numbers and sizes, in the words of the other checks', () => {
  it('answers a page before the first as out of range, and takes an empty value as none', () => {
    for (const page of [0, '0', '-3'])
      expect(refusal(listCompaniesQuery, { page }).fields).toEqual({ page: 'Page is out of range' });
    // '?page=&rows_per_page=' as the query parser gives it: the defaults, not 0 refused.
    expect(parseInput(listCompaniesQuery, { page: '', rows_per_page: '' })).toMatchObject({
      page: 1,
      rows_per_page: 10,
    });
    expect(parseInput(listCompaniesQuery, { page: '2', rows_per_page: '50' })).toMatchObject({
      page: 2,
      rows_per_page: 50,
    });
    expect(refusal(listCompaniesQuery, { page: 'two' }).fields).toEqual({ page: 'Page must be a number' });
    expect(parseInput(documents.dropOffsQuery, { limit: ' ' }).limit).toBe(100);
    expect(refusal(documents.dropOffsQuery, { limit: '0' }).fields).toEqual({
      limit: 'Limit must be 1 to 500',
    });
  });

  it("answers a path over 2,000 characters 'Path is too long' wherever a path is given", () => {
    const long = `/${'a'.repeat(2_000)}`;
    expect(refusal(documents.removePathBody, { companyId: 'c-1', path: long }).fields).toEqual({
      path: 'Path is too long',
    });
    expect(refusal(documents.getDocumentsBody, { companyId: 'c-1', path: long }).fields).toEqual({
      path: 'Path is too long',
    });
    expect(refusal(documents.downloadDocumentBody, { companyId: 'c-1', link: long }).fields).toEqual({
      link: 'Path is too long',
    });
  });

  it("takes a zip's progress id as a UUID, or none, and refuses anything else", () => {
    const id = '6f1d2c3b-4a59-4e8f-9a0b-1c2d3e4f5a6b';
    expect(
      parseInput(documents.downloadFolderBody, { companyId: 'c-1', path: '/A', progressId: id }),
    ).toMatchObject({
      progressId: id,
    });
    expect(
      parseInput(documents.downloadFolderBody, { companyId: 'c-1', path: '/A' }).progressId,
    ).toBeUndefined();
    expect(
      parseInput(documents.downloadMultipleBody, { companyId: 'c-1', links: ['/a.pdf'], progressId: '' })
        .progressId,
    ).toBe('');
    for (const progressId of ['zip-1', `${id}x`, 42])
      expect(
        refusal(documents.downloadMultipleBody, { companyId: 'c-1', links: ['/a.pdf'], progressId }).fields,
      ).toEqual({ progressId: 'This progress id is not valid' });
  });
});

describe('messages of every body and query', () => {
  // zod's own wording ('Invalid input: expected array, received undefined') names neither the field nor
  // what to do: each field of each schema says it in its own words.
  const ZOD_DEFAULT =
    /^(Invalid input|Too (big|small)|Invalid (string|option|key|element|union)|Unrecognized)/;
  /**
   * A size check left without its own message takes the message the field gives a value of the wrong
   * type: 'Path is missing' for a path too long, 'Page must be a number' for page 0.
   */
  const TYPE_MESSAGE = /missing|must be (a number|text)/i;
  const misworded = (issue: z.core.$ZodIssue) =>
    ZOD_DEFAULT.test(issue.message) ||
    (issue.code === 'too_big' && TYPE_MESSAGE.test(issue.message)) ||
    (issue.code === 'too_small' && issue.origin === 'number' && TYPE_MESSAGE.test(issue.message));
  const ODD_VALUES: unknown[] = [
    undefined,
    null,
    true,
    5,
    1.5,
    -1,
    0,
    'x',
    '',
    'y'.repeat(20_000),
    {},
    [],
    [5],
    ['x'],
    [{}],
    Array.from({ length: 1_000 }, () => '00000000-0000-4000-8000-000000000000'),
  ];
  const unwrap = (schema: z.ZodType): z.ZodType => {
    let inner = schema;
    while ('innerType' in inner.def) inner = inner.def.innerType as z.ZodType;
    return inner;
  };
  /** Inputs that set one field, at any depth of objects and lists of objects, to an odd value. */
  function* oddInputs(schema: z.ZodType): Generator<unknown> {
    const inner = unwrap(schema);
    if (inner instanceof z.ZodObject) {
      for (const [key, field] of Object.entries(inner.shape as Record<string, z.ZodType>)) {
        for (const value of ODD_VALUES) yield { [key]: value };
        for (const nested of oddInputs(field)) yield { [key]: nested };
      }
    } else if (inner instanceof z.ZodArray) {
      for (const nested of oddInputs(inner.element as z.ZodType)) yield [nested];
    }
  }

  it('are never the validation library’s defaults, nor a type message on a size check', () => {
    const modules = { companies, documents, firms, sessions, users };
    const found = new Set<string>();
    let schemas = 0;
    for (const [module, exports] of Object.entries(modules)) {
      for (const [name, schema] of Object.entries(exports)) {
        if (!(schema instanceof z.ZodObject)) continue;
        schemas++;
        for (const input of oddInputs(schema)) {
          for (const issue of schema.safeParse(input).error?.issues ?? []) {
            if (!misworded(issue)) continue;
            const where = issue.path.map((part) => (typeof part === 'number' ? '#' : String(part))).join('.');
            // Only the field set to the odd value: the others are simply missing.
            if (JSON.stringify(input).includes(`"${String(issue.path[0])}"`))
              found.add(`${module}.${name}.${where}: ${issue.message}`);
          }
        }
      }
    }
    expect(schemas).toBeGreaterThan(40);
    expect([...found]).toEqual([]);
  });
});
