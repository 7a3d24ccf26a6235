import { hasHiddenCharacters } from '@portico/platform';
import { Messages } from '../messages.js';

export const BASE_ENTITY_TYPES = [
  'Individual',
  'Partnership',
  'Trust',
  'Exempt Organization',
  'S-Corporation',
  'C-Corporation',
] as const;

/** The entity name rules of spec 1 s.5.3 and spec 3 s.5; returns the message of the first broken rule. */
export function validateEntityName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return Messages.entityNameRequired;
  if (hasHiddenCharacters(trimmed)) return Messages.entityNameHidden;
  if (trimmed.includes('/')) return Messages.entityNameSlash;
  if (trimmed.includes('"')) return Messages.entityNameQuote;
  return undefined;
}

/** Whether the firm offers this type; Individual can be disallowed and then reads 'Individual (Not Allowed)'. */
export function validateEntityType(
  type: string,
  firm: { customEntityTypes: string[]; individualAllowed: boolean },
): string | undefined {
  if (type === 'Individual' && !firm.individualAllowed) return Messages.individualNotAllowed;
  if ((BASE_ENTITY_TYPES as readonly string[]).includes(type) || firm.customEntityTypes.includes(type))
    return undefined;
  return Messages.invalidEntityType;
}

/** The entity types a firm offers, with the display label the type selector shows. */
export function entityTypeOptions(firm: { customEntityTypes: string[]; individualAllowed: boolean }) {
  return [...BASE_ENTITY_TYPES, ...firm.customEntityTypes].map((type) => ({
    value: type,
    label: type === 'Individual' && !firm.individualAllowed ? 'Individual (Not Allowed)' : type,
    disabled: type === 'Individual' && !firm.individualAllowed,
  }));
}

/** ISO 3166-1 alpha-2 codes: the known country list (names come from Intl.DisplayNames in the screens). */
export const COUNTRY_CODES = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

export const isKnownCountry = (code: string) => COUNTRY_CODES.includes(code);

/** Address labels change for Canada (spec 1 s.5.3). */
export function addressLabels(country: string): { state: string; zip: string } {
  return country === 'CA'
    ? { state: 'Province/Territory', zip: 'Postal Code' }
    : { state: 'State', zip: 'Zip Code' };
}
