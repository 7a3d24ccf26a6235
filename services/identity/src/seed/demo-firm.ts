import { acrossFirms } from '@portico/platform';
import { eq } from 'drizzle-orm';
import { firms } from '../schema.js';
import type { IdentityDb } from '../tokens.js';
import { type BuiltFirm, buildFirm, type FirmSpec } from './firm-builder.js';

/** The password of every demo login (it meets the sign-in password rules). */
export const DEMO_PASSWORD = 'Portico-Demo-2026!';

/** 'Demo CPA': every role, a firm group, and clients covering the cases the screens must handle. */
export const DEMO_FIRM: FirmSpec = {
  name: 'Demo CPA',
  slug: 'demo-cpa',
  groups: ['North Office'],
  preferences: {
    has_firm_groups: true,
    in_app_banner_enabled: true,
    in_app_banner_text: 'Tax season hours: Mon-Sat 8am-8pm.',
  },
  customEntityTypes: ['Estate'],
  advisors: [
    {
      key: 'partner',
      fname: 'Paula',
      lname: 'Partner',
      email: 'partner@demo-cpa.test',
      firmAccess: 'partner',
      password: DEMO_PASSWORD,
    },
    {
      key: 'admin',
      fname: 'Adam',
      lname: 'Admin',
      email: 'admin@demo-cpa.test',
      firmAccess: 'admin',
      password: DEMO_PASSWORD,
    },
    {
      key: 'full',
      fname: 'Fiona',
      lname: 'Full',
      email: 'full@demo-cpa.test',
      firmAccess: 'full',
      password: DEMO_PASSWORD,
    },
    {
      key: 'group',
      fname: 'Gary',
      lname: 'Group',
      email: 'group@demo-cpa.test',
      firmAccess: 'group',
      group: 'North Office',
      password: DEMO_PASSWORD,
    },
  ],
  clients: [
    {
      key: 'alice',
      fname: 'Alice',
      lname: 'Anders',
      email: 'alice@client.test',
      phoneNumber: '4155550101',
      password: DEMO_PASSWORD,
      assignedAdvisor: 'full',
      group: 'North Office',
      companies: [
        {
          key: 'alice_individual',
          name: 'Alice Anders',
          entityType: 'Individual',
          city: 'San Francisco',
          state: 'CA',
        },
        {
          key: 'anders_llc',
          name: 'Anders Design LLC',
          entityType: 'Partnership',
          city: 'Oakland',
          state: 'CA',
          // The firm files the final return of each year here; its client cannot change that folder.
          clientBlockedFolders: ['/{year}/Final'],
        },
        { key: 'anders_trust', name: 'Anders Family Trust', entityType: 'Trust' },
      ],
    },
    {
      key: 'bob',
      fname: 'Bob',
      lname: 'Brown',
      email: 'bob@client.test',
      password: DEMO_PASSWORD,
      companies: [{ key: 'bob_individual', name: 'Bob Brown', entityType: 'Individual' }],
    },
    {
      key: 'carol',
      fname: 'Carol',
      lname: 'Chen',
      email: 'carol@client.test',
      password: DEMO_PASSWORD,
      readonlyAccess: true,
      companies: [{ key: 'carol_individual', name: 'Carol Chen', entityType: 'Individual' }],
    },
    {
      key: 'dan',
      fname: 'Dan',
      lname: 'Diaz',
      email: 'dan@client.test',
      password: DEMO_PASSWORD,
      companies: [
        { key: 'diaz_corp', name: 'Diaz Holdings Inc', entityType: 'C-Corporation' },
        { key: 'diaz_old', name: 'Diaz Old Ventures', entityType: 'S-Corporation', inactive: true },
      ],
    },
    {
      key: 'erin',
      fname: 'Erin',
      lname: 'Evans',
      email: 'erin@client.test',
      password: DEMO_PASSWORD,
      companies: [
        {
          key: 'evans_readonly',
          name: 'Evans Foundation',
          entityType: 'Exempt Organization',
          readonlyAccess: true,
        },
      ],
    },
    {
      key: 'frank',
      fname: 'Frank',
      lname: 'Fisher',
      email: 'frank@client.test',
      preferredSignInMethod: 'email',
      companies: [{ key: 'fisher_scorp', name: 'Fisher Boats S Corp', entityType: 'S-Corporation' }],
    },
    {
      key: 'gina',
      fname: 'Gina',
      lname: 'Garcia',
      email: 'gina@client.test',
      password: DEMO_PASSWORD,
      companies: [
        { key: 'garcia_inactive', name: 'Garcia Imports', entityType: 'Partnership', inactive: true },
      ],
    },
  ],
};

/** Seeds the demo firm once; a second run finds it and changes nothing. */
export async function seedDemoFirm(db: IdentityDb): Promise<{ created: boolean; firm?: BuiltFirm }> {
  const existing = await acrossFirms(db, (tx) =>
    tx.select({ id: firms.id }).from(firms).where(eq(firms.slug, DEMO_FIRM.slug)),
  );
  if (existing.length) return { created: false };
  return { created: true, firm: await buildFirm(db, DEMO_FIRM) };
}
