import type { CurrentUser } from '@portico/kit';

/** A complete signed-in user as `GET /current_user` answers it, for component tests to override. */
export function aCurrentUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u-1',
    uid: 'uid-1',
    firm_id: 'f-1',
    fname: '',
    lname: '',
    full_name: '',
    preferred_name: '',
    email: '',
    phone_number: '4155550101',
    work_email: '',
    work_phone_number: '',
    work_phone_extension: '',
    time_zone: '',
    preferred_contact_method: 'email',
    preferred_sign_in_method: 'password',
    firm_group_id: '',
    assigned_advisor_id: '',
    enabled_2fa: false,
    paying: false,
    readonly_access: false,
    is_advisor: false,
    firm_access: '',
    default_company_id: '',
    set_password_required: false,
    out_of_office_message: '',
    out_of_office: false,
    two_factor_forced: false,
    pending_email: '',
    created_at: '',
    deleted_at: '',
    company_ids: [],
    ...overrides,
  } as CurrentUser;
}

/** A JSON answer as fetch gives it, for tests that fake the network under the API client. */
export const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * An access token shaped as the gateway's (header, claims, signature; base64url), with the claims given:
 * what the browser reads of a token without verifying it.
 */
export const accessTokenWith = (claims: { sub: string; sid?: string }) => {
  const payload = btoa(JSON.stringify(claims)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return ['eyJhbGciOiJFUzI1NiJ9', payload, 'signature'].join('.');
};

/** The tokens of the `n`th session of one user, as sign-in and refresh answer them. */
export const sessionTokens = (n: number) => ({
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
  user_id: 'u1',
  is_advisor: false,
  set_password_required: false,
});
