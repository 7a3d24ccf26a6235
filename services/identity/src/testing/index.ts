export * from '../seed/firm-builder.js';
export { ACCOUNT_NOTICE_KINDS } from '../users/account-notices.js';
export * from './fixtures.js';
export * from './start-identity.js';
