import { randomBytes } from 'node:crypto';
import type { Actor } from '@portico/platform';
import type { BuiltFirm, FirmSpec } from '../seed/firm-builder.js';

export const TEST_PASSWORD = 'Correct-Horse-9!';

/**
 * A fresh firm for one test file: emails carry a random tag, since sign-in emails are unique across
 * firms. Every role, a group, and clients in each state the rules care about.
 */
export function testFirmSpec(label: string, overrides: Partial<FirmSpec> = {}): FirmSpec {
  const tag = `${label}-${randomBytes(3).toString('hex')}`;
  const email = (who: string) => `${who}.${tag}@example.com`;
  return {
    name: `Firm ${tag}`,
    slug: `firm-${tag}`,
    groups: ['East'],
    advisors: [
      {
        key: 'partner',
        fname: 'Pat',
        lname: 'Partner',
        email: email('partner'),
        firmAccess: 'partner',
        password: TEST_PASSWORD,
      },
      {
        key: 'admin',
        fname: 'Ada',
        lname: 'Admin',
        email: email('admin'),
        firmAccess: 'admin',
        password: TEST_PASSWORD,
      },
      {
        key: 'full',
        fname: 'Fay',
        lname: 'Full',
        email: email('full'),
        firmAccess: 'full',
        password: TEST_PASSWORD,
      },
      {
        key: 'group',
        fname: 'Gus',
        lname: 'Group',
        email: email('group'),
        firmAccess: 'group',
        group: 'East',
        password: TEST_PASSWORD,
      },
      {
        key: 'nogroup',
        fname: 'Noa',
        lname: 'Nogroup',
        email: email('nogroup'),
        firmAccess: 'group',
        password: TEST_PASSWORD,
      },
    ],
    clients: [
      {
        key: 'client',
        fname: 'Cleo',
        lname: 'Client',
        email: email('client'),
        phoneNumber: '4155550123',
        password: TEST_PASSWORD,
        group: 'East',
        companies: [
          { key: 'individual', name: 'Cleo Client', entityType: 'Individual' },
          { key: 'llc', name: 'Cleo LLC', entityType: 'Partnership' },
          { key: 'inactive', name: 'Old Cleo Co', entityType: 'S-Corporation', inactive: true },
        ],
      },
      {
        key: 'other',
        fname: 'Otto',
        lname: 'Other',
        email: email('other'),
        password: TEST_PASSWORD,
        companies: [{ key: 'otto', name: 'Otto Other', entityType: 'Individual' }],
      },
      {
        key: 'readonly',
        fname: 'Rita',
        lname: 'Readonly',
        email: email('readonly'),
        password: TEST_PASSWORD,
        readonlyAccess: true,
        companies: [{ key: 'rita', name: 'Rita Readonly', entityType: 'Individual' }],
      },
      {
        key: 'rocompany',
        fname: 'Rex',
        lname: 'Rocompany',
        email: email('rocompany'),
        password: TEST_PASSWORD,
        companies: [
          { key: 'rex_ro', name: 'Rex Read Only Inc', entityType: 'C-Corporation', readonlyAccess: true },
        ],
      },
      {
        key: 'linkonly',
        fname: 'Lin',
        lname: 'Linkonly',
        email: email('linkonly'),
        companies: [{ key: 'lin', name: 'Lin Linkonly', entityType: 'Individual' }],
      },
      {
        key: 'deactivated',
        fname: 'Dee',
        lname: 'Deactivated',
        email: email('deactivated'),
        password: TEST_PASSWORD,
        paying: false,
        companies: [{ key: 'dee', name: 'Dee Deactivated', entityType: 'Individual' }],
      },
      {
        key: 'twofa',
        fname: 'Tia',
        lname: 'Twofa',
        email: email('twofa'),
        password: TEST_PASSWORD,
        enabled2fa: true,
        companies: [{ key: 'tia', name: 'Tia Twofa', entityType: 'Individual' }],
      },
      {
        key: 'setpw',
        fname: 'Sam',
        lname: 'Setpw',
        email: email('setpw'),
        password: TEST_PASSWORD,
        setPasswordRequired: true,
        companies: [{ key: 'sam', name: 'Sam Setpw', entityType: 'Individual' }],
      },
    ],
    ...overrides,
  };
}

/**
 * The actor the gateway would send for a user of a firm built from `testFirmSpec`, by the spec's key
 * ('partner', 'group', 'client', ...), as other services' tests call identity and each other with.
 */
export function testActor(built: BuiltFirm, key: string, extra: Partial<Actor> = {}): Actor {
  const spec = testFirmSpec('x');
  const advisor = spec.advisors.find((a) => a.key === key);
  const client = spec.clients.find((c) => c.key === key);
  return {
    user_id: built.users[key]?.id as string,
    firm_id: built.firmId,
    role: advisor ? 'advisor' : 'client',
    ...(advisor ? { firm_access: advisor.firmAccess } : {}),
    ...(advisor?.group ? { firm_group_id: built.groups[advisor.group] } : {}),
    readonly_access: !!client?.readonlyAccess,
    ...extra,
  };
}
