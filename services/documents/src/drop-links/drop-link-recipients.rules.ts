/** Drop Link is for partners, admins and full users (spec 1 s.2.2: 'partner, admin or full'). */
export const DROP_LINK_MANAGERS: readonly string[] = ['partner', 'admin', 'full'];

interface Contact {
  id: string;
  /** As identity sends it with the firm's contacts; empty from an identity older than the field. */
  firmAccess: string;
}

/**
 * The firm users (identity's firm contacts) who may open Drop Link, and so download what it received.
 * Every one when none has a firm access: identity older than the field, during a deploy, sends none,
 * and documents then keeps to what it did before rather than offer and tell nobody.
 */
export function dropLinkManagers<U extends Contact>(users: readonly U[]): U[] {
  if (!users.some((user) => user.firmAccess)) return [...users];
  return users.filter((user) => DROP_LINK_MANAGERS.includes(user.firmAccess));
}

/**
 * Who is told of a drop-off: the chosen users (the firm preference
 * firm_user_ids_to_receive_drop_link_notification) who may still open Drop Link. When none is (a new
 * firm starts with the drop link on and nobody chosen; every chosen user left or lost the access), the
 * firm's partners instead (`fallback`), so files left with the firm never go unannounced.
 */
export function dropOffRecipients<U extends Contact>(
  users: readonly U[],
  chosenIds: readonly string[],
): { recipients: U[]; fallback: boolean } {
  const chosen = new Set(chosenIds);
  const recipients = dropLinkManagers(users).filter((user) => chosen.has(user.id));
  if (recipients.length) return { recipients, fallback: false };
  return { recipients: users.filter((user) => user.firmAccess === 'partner'), fallback: true };
}
