import type {
  LookupEmailResponse,
  SendAuthLinkResponse,
  SendCodeResponse,
  SessionTokens,
  SetSignInMethodResponse,
  SignInStepResponse,
  SignOutResponse,
  VerifyAuthLinkResponse,
} from '@portico/proto';
import type { ApiClient } from './client.js';
import { ApiError, isApiError } from './errors.js';
import type { Rest } from './rest.js';

export type LookupEmail = Rest<LookupEmailResponse>;
export type SignInStep = Rest<SignInStepResponse>;
export type SentCode = Rest<SendCodeResponse>;
export type SentLink = Rest<SendAuthLinkResponse>;
export type VerifiedLink = Rest<VerifyAuthLinkResponse>;
export type Tokens = Rest<SessionTokens>;
export type SignInMethodSet = Rest<SetSignInMethodResponse>;
export type PreferredSignInMethod = 'password' | 'email' | 'sms' | '';

/** The sign-in calls of spec 1 s.4.4 and s.7.5; all public except set_sign_in_method and sign_out_everywhere. */
export const sessionsApi = (api: ApiClient) => {
  const open = { auth: false } as const;
  return {
    lookupEmail: (email: string) =>
      api.post<LookupEmail>('/sessions/get_preferred_sign_in_method', { email }, open),
    verifyPassword: (email: string, password: string) =>
      api.post<SignInStep>('/sessions/verify_password', { email, password }, open),
    sendEmailCode: (uid: string) =>
      api.post<SentCode>('/sessions/send_email_verification_code', { uid }, open),
    sendSmsCode: (uid: string) => api.post<SentCode>('/sessions/send_sms_verification_code', { uid }, open),
    verifyCode: (uid: string, code: string) =>
      api.post<SignInStep>('/sessions/verify_verification_code', { uid, code }, open),
    sendAuthLink: (
      // The firm as spec 1 s.7.5 names it in this call.
      body: { uid: string; accountantId: string; redirect?: string } | { email: string; redirect?: string },
    ) => api.post<SentLink>('/sessions/send_auth_link', body, open),
    verifyAuthLink: (token: string) => api.post<VerifiedLink>('/sessions/verify_auth_link', { token }, open),
    forgotPassword: (email: string) => api.post<SentLink>('/sessions/forgot_password', { email }, open),
    resetPassword: (token: string, password: string, password_confirmation: string) =>
      api.post<SignInStep>('/sessions/reset_password', { token, password, password_confirmation }, open),
    send2faCode: (challenge_token: string) =>
      api.post<SentCode>('/sessions/send_2fa_code', { challenge_token }, open),
    /** `redirect`: where the link's sign-in lands (it opens a new tab, without this page's address). */
    send2faLink: (challenge_token: string, redirect = '') =>
      api.post<SentCode>('/sessions/send_2fa_link', { challenge_token, redirect }, open),
    verify2faCode: (challenge_token: string, code: string) =>
      api.post<SignInStep>('/sessions/verify_2fa_code', { challenge_token, code }, open),
    exchangeToken: (auth_token: string) => api.post<Tokens>('/sessions/exchange_token', { auth_token }, open),
    signOut: (refresh_token: string) =>
      api.post<Rest<SignOutResponse>>('/sessions/sign_out', { refresh_token }, open),
    signOutEverywhere: () => api.post<Rest<SignOutResponse>>('/sessions/sign_out_everywhere', {}),
    /** Sent with spec 2 section 7's keys (signInMethod, newPassword, phoneNumber). */
    setSignInMethod: ({
      method,
      password,
      phone_number,
      ...rest
    }: {
      method: 'password' | 'sms' | 'email';
      password?: string;
      password_confirmation?: string;
      phone_number?: string;
      /** A signed-in user who signs in with a password confirms the change with it. */
      current_password?: string;
    }) =>
      api
        // Keys left undefined are not sent (the body is JSON).
        .post<SignInMethodSet>('/users/set_sign_in_method', {
          signInMethod: method,
          newPassword: password,
          phoneNumber: phone_number,
          ...rest,
        })
        .catch(withOwnFieldNames),
  };
};
export type SessionsApi = ReturnType<typeof sessionsApi>;

/** The spec's keys, as a refusal of set_sign_in_method names them, and this call's own names for them. */
const OWN_FIELD_NAMES: Record<string, string> = {
  signInMethod: 'method',
  newPassword: 'password',
  phoneNumber: 'phone_number',
};

/** A refusal whose fields are named as the caller named them (identity's own already are). */
function withOwnFieldNames(err: unknown): never {
  if (!isApiError(err) || !err.fields) throw err;
  const fields = Object.fromEntries(
    Object.entries(err.fields).map(([key, message]) => [OWN_FIELD_NAMES[key] ?? key, message]),
  );
  throw new ApiError(err.status, {
    message: err.message,
    error: err.error,
    code: err.code,
    fields,
    trace_id: err.traceId,
  });
}
