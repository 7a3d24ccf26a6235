import type {
  Company,
  Firm,
  FirmTheme,
  ListCompaniesResponse,
  UpdateProfileResponse,
  User,
} from '@portico/proto';
import type { ApiClient } from './client.js';
import type { Rest } from './rest.js';

export type CurrentUser = Rest<User>;
export type Entity = Rest<Company>;
export type EntityPage = Rest<ListCompaniesResponse>;
export type ProfileUpdate = Rest<UpdateProfileResponse>;
export type FirmBranding = Rest<FirmTheme>;
export type FirmAccess = 'partner' | 'admin' | 'full' | 'group';

/**
 * The firm preference keys the frontends read (identity fills in every default). A client is sent only
 * the required ones here (theme, banner, what hides their Inbox and Documents, the file manager's client
 * actions, forced two-factor); the optional ones reach advisors only.
 */
export interface FirmPreferences {
  communication_disabled: boolean;
  hide_documents_view_from_clients: boolean;
  disable_folder_action: boolean;
  disable_file_edit_action: boolean;
  force_2fa_on_users: boolean;
  in_app_banner_enabled: boolean;
  in_app_banner_text: string;
  theme: { primary?: string };
  new_tax_return_delivery_enabled?: boolean;
  review_and_export_enabled?: boolean;
  signature_requests_enabled?: boolean;
  all_activities_enabled?: boolean;
  drop_link_enabled?: boolean;
  tour_enabled?: boolean;
  template_disabled_for_nonadmin?: boolean;
  use_firm_roles?: boolean;
  has_firm_groups?: boolean;
  force_2fa_on_firm_users?: boolean;
  [key: string]: unknown;
}

/**
 * GET /firms/current_user_firm. `preferences_version` goes back with a settings save (updatePreferences), which
 * identity refuses with 409 when someone else saved the preferences since. A client's answer carries only
 * the firm's name, slug, logo, time zone and their preferences: the firm's tags, groups and entity types
 * are empty there.
 */
export type CurrentFirm = Omit<Rest<Firm>, 'preferences'> & { preferences: FirmPreferences };

export type ProfileChanges = Partial<
  Pick<
    CurrentUser,
    | 'email'
    | 'phone_number'
    | 'work_phone_number'
    | 'work_phone_extension'
    | 'time_zone'
    | 'preferred_contact_method'
    | 'enabled_2fa'
    | 'fname'
    | 'lname'
    | 'preferred_name'
    | 'out_of_office_message'
    | 'out_of_office'
  >
> & {
  /** Asked of a user who signs in with a password when their own email or phone changes or two-factor goes off. */
  current_password?: string;
  /** Withdraws the user's own email change waiting for confirmation. */
  cancel_email_change?: boolean;
};

export type EntityChanges = Partial<
  Pick<
    Entity,
    | 'name'
    | 'entity_type'
    | 'business_email'
    | 'other_email'
    | 'street'
    | 'city'
    | 'state'
    | 'zip'
    | 'country'
    | 'external_entity_id'
    | 'tax_return_id'
    | 'inactive'
    | 'readonly_access'
  >
>;

/** PATCH /out_of_office/{userId}: the advisor's switch and the message clients see. */
export interface OutOfOfficeChanges {
  out_of_office: boolean;
  out_of_office_message: string;
}

export const usersApi = (api: ApiClient) => ({
  currentUser: () => api.get<CurrentUser>('/current_user'),
  /** The emailed link of a changed email; answers the user with the new address (no session needed). */
  confirmEmail: (token: string) => api.post<CurrentUser>('/users/confirm_email', { token }, { auth: false }),
  currentFirm: () => api.get<CurrentFirm>('/firms/current_user_firm'),
  firmThemeBySlug: (slug: string) =>
    api.get<FirmBranding>('/firms/get_firm_theme_by_slug', { query: { slug }, auth: false }),
  getUser: (id: string) => api.get<CurrentUser>(`/users/${encodeURIComponent(id)}`),
  updateUser: (id: string, changes: ProfileChanges) =>
    api.patch<ProfileUpdate>(`/users/${encodeURIComponent(id)}`, changes),
  /** An advisor's out of office (PATCH /out_of_office/{userId}, spec 1 s.7.2). */
  setOutOfOffice: (id: string, changes: OutOfOfficeChanges) =>
    api.patch<ProfileUpdate>(`/out_of_office/${encodeURIComponent(id)}`, changes),
  /**
   * The whole merged preferences object. `preferencesVersion`: the current firm's preferences_version the
   * page was loaded at; a save based on an older one answers 409 ('These settings were changed by someone
   * else...'), and the page reloads the firm instead of putting a colleague's change back.
   */
  updatePreferences: (preferences: FirmPreferences, preferencesVersion?: number) =>
    api.post<CurrentFirm>('/firms/update_preferences', {
      preferences,
      ...(preferencesVersion === undefined ? {} : { preferences_version: preferencesVersion }),
    }),
});

export interface EntityListParams {
  search_term?: string;
  page?: number;
  rows_per_page?: number;
  /** Only entities of this type. */
  entity_type?: string;
}

/** The largest of the entity list's page sizes (spec 1 s.9: 10, 20, 50). */
const LARGEST_ENTITY_PAGE = 50;

/**
 * GET /v2/entities. Advisors are shown inactive entities too, which the pickers list but do not let
 * them choose (spec 1 s.4.2); identity never lists them to clients, whatever is asked.
 */
const listEntities = (api: ApiClient, params: EntityListParams) =>
  api.get<EntityPage>('/v2/entities', {
    query: { rows_per_page: 10, page: 1, include_inactive: true, ...params },
  });

export const companiesApi = (api: ApiClient) => ({
  get: (id: string) => api.get<Entity>(`/companies/${encodeURIComponent(id)}`),
  /** Advisor edit. */
  update: (id: string, changes: EntityChanges) =>
    api.patch<Entity>(`/companies/${encodeURIComponent(id)}`, changes),
  /** Client entity profile. */
  updateProfile: (id: string, changes: EntityChanges) =>
    api.put<Entity>(`/companies/${encodeURIComponent(id)}`, changes),
  list: (params: EntityListParams) => listEntities(api, params),
  /**
   * Every entity the caller may see (of one type, if given), read in pages of the largest size: a
   * client's own entities, the chips' selection by entity type.
   */
  listAll: async (filter: Pick<EntityListParams, 'entity_type'> = {}): Promise<EntityPage> => {
    const page = (n: number) => listEntities(api, { ...filter, rows_per_page: LARGEST_ENTITY_PAGE, page: n });
    const first = await page(1);
    const rest = await Promise.all(
      Array.from({ length: Math.max(0, first.total_pages - 1) }, (_, i) => page(i + 2)),
    );
    const companies = [first, ...rest].flatMap((p) => p.companies);
    return { ...first, companies, total_pages: 1 };
  },
  setDefault: (company_id: string) => api.post<unknown>('/set_default_company', { company_id }),
});
export type UsersApi = ReturnType<typeof usersApi>;
export type CompaniesApi = ReturnType<typeof companiesApi>;
