import { AppError } from '@portico/platform';

/** The body the browser refreshes once on: `{ error: 'Unauthorized', code: 'token_expired' }`. */
export const tokenExpired = () => new AppError('unauthorized', 'token_expired', 'Unauthorized');
export const unauthenticated = () => new AppError('unauthorized', 'unauthenticated', 'Unauthorized');
/** A valid token of a session signed out since (or of a user signed out everywhere): a 401 like the others. */
export const SESSION_REVOKED = 'session_revoked';
export const sessionRevoked = () => new AppError('unauthorized', SESSION_REVOKED, 'Unauthorized');
export const forbidden = () =>
  new AppError('forbidden', 'forbidden', 'You do not have permission to do that');
