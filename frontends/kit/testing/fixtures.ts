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
