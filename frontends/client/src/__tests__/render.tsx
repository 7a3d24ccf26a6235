import type { CurrentUser, Entity } from '@portico/kit';
import { aCurrentUser } from '@portico/kit/testing';

export { type Call, renderArea } from '@portico/kit/testing';

export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return aCurrentUser({
    fname: 'Alice',
    lname: 'Anders',
    full_name: 'Alice Anders',
    email: 'alice@client.test',
    company_ids: ['c-1'],
    ...overrides,
  });
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
