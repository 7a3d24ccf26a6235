import { AppError } from '@portico/platform';

/** The body the browser refreshes once on: `{ error: 'Unauthorized', code: 'token_expired' }`. */
export const tokenExpired = () => new AppError('unauthorized', 'token_expired', 'Unauthorized');
export const unauthenticated = () => new AppError('unauthorized', 'unauthenticated', 'Unauthorized');
export const forbidden = () =>
  new AppError('forbidden', 'forbidden', 'You do not have permission to do that');
