/**
 * Every firm preference named in the spec, with its default. A firm stores only what it changed;
 * readers always see this object merged with the stored values.
 */
export const FIRM_PREFERENCE_DEFAULTS = {
  // Security and sign-in
  force_2fa_on_users: false,
  force_2fa_on_firm_users: false,
  // Navigation feature flags (spec 1 s.2.2)
  communication_disabled: false,
  message_tags_disabled: false,
  new_tax_return_delivery_enabled: true,
  review_and_export_enabled: false,
  signature_requests_enabled: true,
  all_activities_enabled: true,
  drop_link_enabled: true,
  tour_enabled: true,
  template_disabled_for_nonadmin: false,
  hide_documents_view_from_clients: false,
  use_firm_roles: false,
  has_firm_groups: false,
  // Banner and branding
  in_app_banner_enabled: false,
  in_app_banner_text: '',
  theme: { primary: '#1f5fa8' } as Record<string, string>,
  customElements: {} as Record<string, unknown>,
  custom_element_enabled: false,
  // Documents
  bulk_upload_processor: false,
  annotation_enabled: false,
  disable_provided_elsewhere: false,
  disable_folder_action: false,
  disable_file_edit_action: false,
  document_tags_enabled: false,
  questionnaire_document_notification_enabled: true,
  // Entities and users
  external_entity_id_allowed: false,
  external_user_id_allowed: false,
  client_list_import_diy_enabled: false,
  // Drop link
  hide_sign_in_button_on_drop_link: false,
  firm_user_ids_to_receive_drop_link_notification: [] as string[],
  // Questionnaires (spec 2)
  first_section_required: false,
  hide_document_uploads_within_sections: false,
  require_one_signature_per_section: false,
  hide_signature_print_option: false,
  remove_please_upload_for_rollover_items: false,
  document_drop_off_enabled: true,
  parent_entity_relevant_questionnaire_statuses_enabled: false,
  scan_and_auto_flow_export_enabled: false,
  export_to_third_party_dms_enabled: false,
  export_to_platforms: [] as string[],
  // Delivery and billing (spec 3)
  billing_enabled: false,
  identity_verification_enabled: false,
  tax_return_send_to_documents_path: '/{year}/Tax Return',
  send_tax_return_to_documents_default_subject:
    'Your {tax_year} tax return is now accessible in Documents Portal.',
  send_tax_return_to_documents_default_message:
    'Hi {client_preferred_name},\n\nYour tax return is now available in your Documents.',
};

export type FirmPreferences = typeof FIRM_PREFERENCE_DEFAULTS;
export type PreferenceKey = keyof FirmPreferences;

/**
 * export_to_platforms names the platforms a firm exports to, a handful in practice: bounded so a save
 * cannot store (and every read of the firm carry) an unbounded list.
 */
export const EXPORT_PLATFORMS_MAX = 50;
export const EXPORT_PLATFORM_NAME_MAX = 100;

const kindOf = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

/** The stored values over the defaults. Unknown stored keys (from an older version) are dropped. */
export function mergePreferences(stored: Record<string, unknown>): FirmPreferences {
  const merged: Record<string, unknown> = { ...FIRM_PREFERENCE_DEFAULTS };
  for (const key of Object.keys(FIRM_PREFERENCE_DEFAULTS)) {
    if (key in stored && kindOf(stored[key]) === kindOf(merged[key])) merged[key] = stored[key];
  }
  return merged as FirmPreferences;
}

/**
 * Checks a whole preferences object from the settings screen: every key must be known and keep its
 * type. Returns field messages, empty when valid.
 */
export function validatePreferences(input: Record<string, unknown>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(input)) {
    if (!(key in FIRM_PREFERENCE_DEFAULTS)) {
      errors[key] = 'Unknown preference';
      continue;
    }
    const expected = kindOf(FIRM_PREFERENCE_DEFAULTS[key as PreferenceKey]);
    if (kindOf(value) !== expected)
      errors[key] = `Must be ${expected === 'array' ? 'a list' : `a ${expected}`}`;
  }
  if (typeof input.in_app_banner_text === 'string' && input.in_app_banner_text.length > 500) {
    errors.in_app_banner_text = 'Must be at most 500 characters';
  }
  // The lists are of ids and names: text only, so a number or an object never reaches a reader of them.
  // The drop link's recipients have the spec's own message, given where they are checked (FirmsService).
  for (const [key, value] of Object.entries(input))
    if (
      Array.isArray(value) &&
      key !== 'firm_user_ids_to_receive_drop_link_notification' &&
      !errors[key] &&
      !value.every((item) => typeof item === 'string')
    )
      errors[key] = 'Must be a list of text';
  const platforms = input.export_to_platforms;
  if (Array.isArray(platforms) && !errors.export_to_platforms) {
    if (platforms.length > EXPORT_PLATFORMS_MAX)
      errors.export_to_platforms = `Must be at most ${EXPORT_PLATFORMS_MAX} platforms`;
    else if (platforms.some((name: string) => name.length > EXPORT_PLATFORM_NAME_MAX))
      errors.export_to_platforms = `Each platform must be at most ${EXPORT_PLATFORM_NAME_MAX} characters`;
  }
  const theme = input.theme as Record<string, unknown> | undefined;
  if (kindOf(theme) === 'object' && theme) {
    const primary = theme.primary;
    if (Object.keys(theme).some((key) => key !== 'primary'))
      errors.theme = 'theme takes only primary, a colour like #1f5fa8';
    else if (primary !== undefined && (typeof primary !== 'string' || !/^#[0-9a-fA-F]{6}$/.test(primary)))
      errors.theme = 'theme.primary must be a colour like #1f5fa8';
  }
  if (kindOf(input.customElements) === 'object' && JSON.stringify(input.customElements).length > 20_000)
    errors.customElements = 'Must be at most 20,000 characters as JSON';
  return errors;
}

/**
 * What a firm's row keeps: the values that differ from the defaults, so a default changed in a later
 * release reaches every firm that did not choose otherwise.
 */
export function storedPreferences(merged: FirmPreferences): Record<string, unknown> {
  return Object.fromEntries(
    changedPreferenceKeys(FIRM_PREFERENCE_DEFAULTS, merged).map((key) => [key, merged[key as PreferenceKey]]),
  );
}

/** Keys whose value differs between two merged objects. */
export function changedPreferenceKeys(before: FirmPreferences, after: FirmPreferences): string[] {
  return Object.keys(after).filter(
    (key) => JSON.stringify(before[key as PreferenceKey]) !== JSON.stringify(after[key as PreferenceKey]),
  );
}
