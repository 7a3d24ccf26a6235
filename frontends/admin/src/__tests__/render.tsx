import type { CurrentUser } from '@portico/kit';
import { aCurrentUser } from '@portico/kit/testing';

export { type Call, renderArea } from '@portico/kit/testing';

export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return aCurrentUser({
    fname: 'Fiona',
    lname: 'Full',
    full_name: 'Fiona Full',
    email: 'fiona@firm.test',
    is_advisor: true,
    firm_access: 'full',
    ...overrides,
  });
}
