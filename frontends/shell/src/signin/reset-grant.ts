/**
 * A reset link is spent when it is opened: the service answers a set-password grant for it. The grant
 * is kept for this tab with the link it came from, so that reloading the set-password step (or a mail
 * app's browser reopening it) goes on with it instead of ending on 'This link has expired or was already
 * used'. It is forgotten once the password is set. The link itself is spent and worth nothing.
 */
const KEY = 'portico.reset-grant';

// A browser that blocks site data throws from `sessionStorage` itself: it is read inside the try.
export function keptResetGrant(linkToken: string, storage?: Storage): string | undefined {
  try {
    const kept = JSON.parse((storage ?? globalThis.sessionStorage)?.getItem(KEY) ?? 'null') as {
      token?: string;
      grant?: string;
    } | null;
    return kept?.token === linkToken && kept.grant ? kept.grant : undefined;
  } catch {
    return undefined;
  }
}

export function keepResetGrant(linkToken: string, grant: string, storage?: Storage): void {
  try {
    (storage ?? globalThis.sessionStorage)?.setItem(KEY, JSON.stringify({ token: linkToken, grant }));
  } catch {
    // storage refused: a reload shows the sign-in form (nothing kept to go on with, nothing posted again)
  }
}

export function forgetResetGrant(storage?: Storage): void {
  try {
    (storage ?? globalThis.sessionStorage)?.removeItem(KEY);
  } catch {
    // nothing kept
  }
}
