import { CONTROL_CHARACTERS_MESSAGE } from '@portico/platform';
import { z } from 'zod';
import { noControl, optionalBool, optionalText, queryNumber, token } from '../validation/fields.js';

/** Entity name rules of spec 1 section 5.3, with its exact messages. */
const entityName = z
  .string({ error: 'Entity Name is required' })
  .trim()
  .min(1, 'Entity Name is required')
  .max(255, 'Entity Name is too long')
  .refine((name) => !name.includes('/'), 'Entity Name cannot contain a "/" character.')
  .refine((name) => !name.includes('"'), 'Entity Name cannot contain a " character.')
  .refine(noControl(), CONTROL_CHARACTERS_MESSAGE);

/** PUT /companies/:id, the client's entity profile: what a client may change. */
export const updateCompanyProfileBody = z.object({
  name: entityName.optional(),
  entity_type: optionalText(100),
  business_email: optionalText(254),
  other_email: optionalText(254),
  street: optionalText(255),
  city: optionalText(100),
  state: optionalText(100),
  zip: optionalText(20),
  country: optionalText(100),
});

/** PATCH /companies/:id, the advisor's entity editor (spec 1 section 7.4). */
export const updateCompanyBody = updateCompanyProfileBody.extend({
  external_entity_id: optionalText(100),
  tax_return_id: optionalText(100),
  inactive: optionalBool(),
  readonly_access: optionalBool(),
});

const flag = z
  .enum(['true', 'false'], { error: 'Must be true or false' })
  .transform((value) => value === 'true');

const ENTITY_PAGE_SIZES = [10, 20, 50];
/** The largest int32, what the contracts' page fields hold. */
const MAX_INT32 = 2_147_483_647;

/** GET /v2/entities: the paged entity list. */
export const listCompaniesQuery = z.object({
  // Pasted text may bring a tab or a line break, harmless in a search; NUL and the like are refused.
  search_term: optionalText(200, { typed: true }),
  page: queryNumber(
    z.coerce
      .number({ error: 'Page must be a number' })
      .int('Page must be a whole number')
      .min(1, 'Page is out of range')
      .max(MAX_INT32, 'Page is out of range')
      .default(1),
  ),
  // The page sizes of spec 1 s.9; identity would answer any other size with pages of 10.
  rows_per_page: queryNumber(
    z.coerce
      .number({ error: 'Rows per page must be a number' })
      .refine((n) => ENTITY_PAGE_SIZES.includes(n), 'Rows per page must be 10, 20 or 50')
      .default(10),
  ),
  descending: flag.optional(),
  include_inactive: flag.optional(),
  entity_type: optionalText(100),
});

export const setDefaultCompanyBody = z.object({ company_id: token('Company is missing') });
