// `@portico/kit/signin`: the part of the kit the sign-in page needs, shared on its own so that /signin
// loads neither the component library nor the data-fetching client. Everything here but the lean
// components (ui-signin.ts) is also exported by `@portico/kit` (the same modules, so the same contexts).
import './signin.css';

export { type Api, ApiProvider, createApi, useApi } from './api/ApiProvider.js';
export * from './api/index.js';
export * from './federation/mismatch.js';
export * from './feedback/ErrorFallback.js';
export * from './feedback/error-reports.js';
export * from './inputs/email.js';
export * from './session/link-secret.js';
export * from './session/session-store.js';
export * from './session/shell-context.js';
export * from './theme/theme.js';
export * from './ui-signin.js';
