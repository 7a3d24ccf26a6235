import type { CurrentUser } from '@portico/kit';

export { type Call, renderArea } from '@portico/kit/testing';

export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u-1',
    uid: 'uid-1',
    firm_id: 'f-1',
    fname: 'Fiona',
    lname: 'Full',
    full_name: 'Fiona Full',
    preferred_name: '',
    email: 'fiona@firm.test',
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
    is_advisor: true,
    firm_access: 'full',
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
