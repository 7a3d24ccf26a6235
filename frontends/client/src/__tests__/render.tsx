import type { CurrentUser, Entity } from '@portico/kit';

export { type Call, renderArea } from '@portico/kit/testing';

export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u-1',
    uid: 'uid-1',
    firm_id: 'f-1',
    fname: 'Alice',
    lname: 'Anders',
    full_name: 'Alice Anders',
    preferred_name: '',
    email: 'alice@client.test',
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
    company_ids: ['c-1'],
    ...overrides,
  } as CurrentUser;
}

export function anEntity(overrides: Partial<Entity> = {}): Entity {
  return {
    id: 'c-1',
    hash_id: 'h1',
    firm_id: 'f-1',
    name: 'Anders Design LLC',
    entity_type: 'Partnership',
    business_email: '',
    other_email: '',
    street: '',
    city: 'Oakland',
    state: 'CA',
    zip: '',
    country: 'US',
    external_entity_id: '',
    tax_return_id: '',
    inactive: false,
    readonly_access: false,
    client_manager_id: '',
    cpa_id: '',
    user_id: 'u-1',
    owners: [],
    entity_tags: [],
    created_at: '',
    deleted_at: '',
    ...overrides,
  } as Entity;
}
