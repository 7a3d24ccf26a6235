/**
 * The client profile's rules (spec 1 s.2.8, s.5.3, s.5.5), checked in the browser before the gateway
 * and identity check them again. Messages match the server's, so a field shows the same text either way;
 * the phone's area-code rule (never 0 or 1 first) is checked here only.
 */
import { EMAIL_MESSAGES, isValidEmail, PHONE_MESSAGES, phoneDigits, phoneProblem } from '@portico/kit';

/** The time zones identity accepts, in the order the select shows them. */
export const US_TIME_ZONES = [
  'Hawaii',
  'Alaska',
  'Pacific Time (US & Canada)',
  'Arizona',
  'Mountain Time (US & Canada)',
  'Central Time (US & Canada)',
  'Eastern Time (US & Canada)',
  'Indiana (East)',
  'Puerto Rico',
  'American Samoa',
  'Guam',
] as const;

export const DEFAULT_TIME_ZONE = 'Pacific Time (US & Canada)';

/** Stored as email or sms, shown as Email or 'Email & Text'. */
export const CONTACT_METHODS = [
  { value: 'email', label: 'Email' },
  { value: 'sms', label: 'Email & Text' },
] as const;

export const PROFILE_MESSAGES = {
  saved: 'Profile updated successfully',
  noChanges: 'No changes to save',
  emailRequired: EMAIL_MESSAGES.required,
  invalidEmail: EMAIL_MESSAGES.invalid,
  phoneDigits: PHONE_MESSAGES.digits,
  areaCode: PHONE_MESSAGES.areaCode,
  extension: 'Extension must be up to 6 digits',
  smsNeedsPhone: 'You must have a phone number to receive SMS notifications.',
  invalidTimeZone: 'Choose a US time zone',
  twoFactorForced: 'Your firm requires two-factor authentication.',
} as const;

export interface ProfileValues {
  email: string;
  preferred_contact_method: string;
  phone_number: string;
  work_phone_number: string;
  work_phone_extension: string;
  time_zone: string;
  enabled_2fa: boolean;
}

export type ProfileErrors = Partial<Record<keyof ProfileValues, string>>;

/** The message of each field that breaks a rule; empty when the profile can be saved. */
/**
 * `loaded`: the values the form started from. A phone left as loaded is not judged again (identity took
 * it, perhaps before the area-code rule): only what the user changes must meet the rules.
 */
export function validateProfile(values: ProfileValues, loaded?: ProfileValues): ProfileErrors {
  const errors: ProfileErrors = {};
  const email = values.email.trim();
  if (!email) errors.email = PROFILE_MESSAGES.emailRequired;
  else if (!isValidEmail(email)) errors.email = PROFILE_MESSAGES.invalidEmail;
  for (const key of ['phone_number', 'work_phone_number'] as const) {
    const unchanged = !!loaded && phoneDigits(values[key]) === phoneDigits(loaded[key]);
    const problem = unchanged ? undefined : phoneProblem(values[key]);
    if (problem) errors[key] = problem;
  }
  if (!/^\d{0,6}$/.test(values.work_phone_extension.trim()))
    errors.work_phone_extension = PROFILE_MESSAGES.extension;
  if (!(US_TIME_ZONES as readonly string[]).includes(values.time_zone))
    errors.time_zone = PROFILE_MESSAGES.invalidTimeZone;
  if (values.preferred_contact_method === 'sms' && !phoneDigits(values.phone_number) && !errors.phone_number)
    errors.preferred_contact_method = PROFILE_MESSAGES.smsNeedsPhone;
  return errors;
}

/**
 * The form's starting values from a user (the same fields, as the API answers them); a user without a
 * zone gets the Pacific default.
 */
export function profileValuesOf(user: ProfileValues): ProfileValues {
  return {
    email: user.email,
    preferred_contact_method: user.preferred_contact_method === 'sms' ? 'sms' : 'email',
    phone_number: phoneDigits(user.phone_number),
    work_phone_number: phoneDigits(user.work_phone_number),
    work_phone_extension: user.work_phone_extension,
    time_zone: (US_TIME_ZONES as readonly string[]).includes(user.time_zone)
      ? user.time_zone
      : DEFAULT_TIME_ZONE,
    enabled_2fa: user.enabled_2fa,
  };
}

/**
 * The fields of `values` the user changed from the form's starting values (`loaded`). A save sends only
 * these: identity reads an absent field as unchanged, and a field sent back as it was loaded would count
 * as a change had it been changed elsewhere since (a phone, an email).
 */
export function changedProfileFields(values: ProfileValues, loaded: ProfileValues): Partial<ProfileValues> {
  const sent: ProfileValues = {
    ...values,
    email: values.email.trim(),
    work_phone_extension: values.work_phone_extension.trim(),
  };
  const keys = Object.keys(sent) as (keyof ProfileValues)[];
  return Object.fromEntries(keys.filter((key) => sent[key] !== loaded[key]).map((key) => [key, sent[key]]));
}
