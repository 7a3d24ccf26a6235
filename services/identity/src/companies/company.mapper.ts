import type { CompanyRow } from '../schema.js';

/** The company setting folders_where_client_actions_disabled, without anything that is not a path. */
export function clientBlockedFolders(company: Pick<CompanyRow, 'settings'>): string[] {
  const folders = company.settings.folders_where_client_actions_disabled;
  return Array.isArray(folders) ? folders.filter((f): f is string => typeof f === 'string') : [];
}

export function toCompanyMessage(
  company: CompanyRow,
  owners: { id: string; uid: string; fname: string; lname: string }[] = [],
) {
  return {
    id: company.id,
    hashId: company.hashId,
    firmId: company.firmId,
    name: company.name,
    entityType: company.entityType,
    businessEmail: company.businessEmail,
    otherEmail: company.otherEmail,
    street: company.street,
    city: company.city,
    state: company.state,
    zip: company.zip,
    country: company.country,
    externalEntityId: company.externalEntityId,
    taxReturnId: company.taxReturnId,
    inactive: company.inactive,
    readonlyAccess: company.readonlyAccess,
    clientManagerId: company.clientManagerId ?? '',
    cpaId: company.cpaId ?? '',
    userId: company.userId ?? '',
    owners: owners.map((o) => ({
      id: o.id,
      uid: o.uid,
      fullName: [o.fname, o.lname].filter(Boolean).join(' '),
    })),
    entityTags: company.entityTags,
    createdAt: company.createdAt.toISOString(),
    deletedAt: company.deletedAt?.toISOString() ?? '',
    // The file manager disables clients' actions in these folders, as the documents service refuses them.
    foldersWhereClientActionsDisabled: clientBlockedFolders(company),
  };
}

/**
 * The entity as its client owners see it: the firm's own records of it (tags, the external and tax
 * software ids, the client manager and the CPA; spec 3 s.1, firm staff only) blank. The client's screens
 * read none of them.
 */
export function toClientCompanyMessage(
  company: CompanyRow,
  owners: Parameters<typeof toCompanyMessage>[1] = [],
) {
  return {
    ...toCompanyMessage(company, owners),
    entityTags: [],
    externalEntityId: '',
    taxReturnId: '',
    clientManagerId: '',
    cpaId: '',
  };
}
