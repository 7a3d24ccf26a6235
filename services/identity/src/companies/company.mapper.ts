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
