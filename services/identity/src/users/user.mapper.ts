import type { UserRow } from '../schema.js';

/** A user row as the User message (the spec's keys), never with secrets. */
export function toUserMessage(
  user: UserRow,
  extra: { companyIds?: string[]; twoFactorForced?: boolean } = {},
) {
  return {
    id: user.id,
    uid: user.uid,
    firmId: user.firmId,
    fname: user.fname,
    lname: user.lname,
    fullName: [user.fname, user.lname].filter(Boolean).join(' '),
    preferredName: user.preferredName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    workEmail: user.workEmail,
    workPhoneNumber: user.workPhoneNumber,
    workPhoneExtension: user.workPhoneExtension,
    timeZone: user.timeZone,
    preferredContactMethod: user.preferredContactMethod,
    preferredSignInMethod: user.preferredSignInMethod,
    firmGroupId: user.firmGroupId ?? '',
    assignedAdvisorId: user.assignedAdvisorId ?? '',
    enabled2fa: user.enabled2fa || !!extra.twoFactorForced,
    paying: user.paying,
    readonlyAccess: user.readonlyAccess,
    isAdvisor: user.isAdvisor,
    firmAccess: user.firmAccess ?? '',
    defaultCompanyId: user.defaultCompanyId ?? '',
    setPasswordRequired: user.setPasswordRequired,
    preferences: { hasTempEmail: user.hasTempEmail },
    outOfOfficeMessage: user.outOfOfficeMessage,
    outOfOffice: user.outOfOffice,
    twoFactorForced: !!extra.twoFactorForced,
    pendingEmail: user.pendingEmail ?? '',
    createdAt: user.createdAt.toISOString(),
    deletedAt: user.deletedAt?.toISOString() ?? '',
    companyIds: extra.companyIds ?? [],
  };
}
