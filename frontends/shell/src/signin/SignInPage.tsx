import {
  Alert,
  Anchor,
  Button,
  Center,
  errorMessage,
  Group,
  Image,
  isApiError,
  Loader,
  Paper,
  type SignInStep,
  Stack,
  Text,
  TextInput,
  Title,
  useApi,
  type VerifiedLink,
} from '@portico/kit/signin';
import { lazy, type ReactNode, Suspense, startTransition, useEffect, useRef, useState } from 'react';
import { useShellRuntime } from '../app/services.js';
import { useThemePrimary } from '../app/theme-context.js';
import { CODE_LENGTH, MESSAGES } from './messages.js';
import { useSignInNavigation } from './navigation.js';
import { rememberedFirm } from './remembered-firm.js';
import { forgetResetGrant, keepResetGrant, keptResetGrant } from './reset-grant.js';
import { HEADER_OF, type SignInState, safeRedirect } from './states.js';
import { useFields } from './useFields.js';
import { useFirmBranding } from './useFirmBranding.js';

// Only the set-email step needs it, after sign-in, when the shell has loaded the whole kit anyway: it stays
// out of the sign-in page's first load.
const EmailConfirmationDialog = lazy(() =>
  import('@portico/kit').then((kit) => ({ default: kit.EmailConfirmationDialog })),
);

// The steps after the first (a password, a new password, a phone number, the sign-in method chooser) and
// their components (Mantine's password input and radios, the kit's phone input) are not part of the page's
// first load: SignInFirst fetches them once the form is on screen, with the rest of the kit.
export const loadLaterSteps = () => import('./later-steps.js');
const PasswordField = lazy(() => loadLaterSteps().then((m) => ({ default: m.PasswordField })));
const PasswordForm = lazy(() => loadLaterSteps().then((m) => ({ default: m.PasswordForm })));
const PhoneForm = lazy(() => loadLaterSteps().then((m) => ({ default: m.PhoneForm })));
const MethodChooser = lazy(() => loadLaterSteps().then((m) => ({ default: m.MethodChooser })));

const OWN_MESSAGES: ReadonlySet<string> = new Set(Object.values(MESSAGES));

/** The text for a failed step: the server's (or the listed one), or the page's own message it threw. */
function shownError(err: unknown, listed?: string): string {
  if (!isApiError(err) && listed === undefined && err instanceof Error && OWN_MESSAGES.has(err.message))
    return err.message;
  return errorMessage(err, listed);
}

interface Flow {
  email: string;
  uid: string;
  accountantId: string;
  methods: { name: string; value: string }[];
  /** The password field shows once the lookup says password. */
  passwordStep: boolean;
  challengeToken: string;
  sentTo: string;
  /** A set-password grant from a reset link. */
  grant: string;
  /** How set-password submits: a reset link, or choosing password as the sign-in method. */
  passwordMode: 'reset' | 'method';
  /** The address set-email sent a confirmation link to. */
  pendingEmail: string;
}

const EMPTY_FLOW: Flow = {
  email: '',
  uid: '',
  accountantId: '',
  methods: [],
  passwordStep: false,
  challengeToken: '',
  sentTo: '',
  grant: '',
  passwordMode: 'reset',
  pendingEmail: '',
};

export interface SignInPageProps {
  /** '/set-sign-in-method' opens on that state (signed in, set_password_required). */
  initial?: SignInState;
}

/** The service's answer for a link or grant that is spent, expired or unknown. */
const isLinkSpent = (err: unknown) =>
  isApiError(err) && (err.status === 410 || err.status === 404 || err.status === 401);

/** /signin and /set-sign-in-method: every state of spec 1 s.2.3 and the flow of s.4.4. */
export function SignInPage({ initial = 'login' }: SignInPageProps) {
  const { sessions, users } = useApi();
  const { session, config } = useShellRuntime();
  const { params, navigate, signedIn } = useSignInNavigation();
  const redirect = safeRedirect(params.get('redirect'));
  const [state, setState] = useState<SignInState>(initial);
  const [flow, setFlow] = useState<Flow>({ ...EMPTY_FLOW, email: (params.get('email') ?? '').trim() });
  const [error, setError] = useState<ReactNode>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The SMS failure message is shown: the button it points to ('the button below') goes with it, in every state. */
  const [smsFailed, setSmsFailed] = useState(false);
  /** The set-email step's confirmation dialog (for flow.pendingEmail). */
  const [confirmationOpen, setConfirmationOpen] = useState(false);
  /** Remounts the login form when its email changes from outside it. */
  const [loginKey, setLoginKey] = useState(0);
  const linkToken = params.get('token');
  const emailToken = params.get('email_token');
  // The address's firm, else the deployment's, else the last one signed in here (read once, and only
  // when needed: a first read of localStorage waits for the browser to load the site's storage).
  const named = params.get('firm') ?? config.firmSlug;
  const [remembered] = useState(() => (named ? undefined : rememberedFirm()));
  const slug = named ?? remembered ?? '';
  const setPrimary = useThemePrimary();

  const branding = useFirmBranding(users, slug);
  useEffect(() => {
    // A transition, as the branding itself (see useFirmBranding): the whole page re-renders in the theme.
    const primary = branding?.primary;
    if (primary) startTransition(() => setPrimary(primary));
  }, [branding, setPrimary]);

  const go = (next: SignInState, patch: Partial<Flow> = {}) => {
    setError(null);
    setNotice(null);
    setSmsFailed(false);
    setFlow((f) => ({ ...f, ...patch }));
    setState(next);
  };

  async function run(action: () => Promise<void>, listed?: (err: unknown) => string | undefined) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      const text = shownError(err, listed?.(err));
      setError(text);
      setSmsFailed(text === MESSAGES.smsFailed);
    } finally {
      setBusy(false);
    }
  }

  /** An auth_token becomes a session; a second factor or a set-password requirement comes first. */
  async function finish(step: SignInStep | VerifiedLink, target = redirect) {
    if (step.two_factor_required) {
      go('2fa', {
        challengeToken: step.challenge_token,
        uid: step.uid || flow.uid,
        sentTo: step.two_factor_methods?.[0]?.value ?? '',
      });
      return;
    }
    if (!step.auth_token) throw new Error(MESSAGES.signInProblem);
    const tokens = await sessions.exchangeToken(step.auth_token);
    session.set(tokens);
    signedIn();
    navigate(
      tokens.set_password_required ? `/set-sign-in-method?redirect=${encodeURIComponent(target)}` : target,
    );
  }

  // A link from an email: /signin?token=...
  const handledToken = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per link token
  useEffect(() => {
    if (!linkToken || handledToken.current === linkToken) return;
    handledToken.current = linkToken;
    // This reset link was opened in this tab before (the page reloaded): its grant goes on.
    const kept = keptResetGrant(linkToken);
    if (kept) {
      go('set-password', { grant: kept, passwordMode: 'reset' });
      return;
    }
    void run(async () => {
      try {
        const verified = await sessions.verifyAuthLink(linkToken);
        if (verified.purpose === 'set_password') {
          keepResetGrant(linkToken, verified.auth_token);
          go('set-password', { grant: verified.auth_token, passwordMode: 'reset' });
          return;
        }
        await finish(verified, safeRedirect(verified.redirect || params.get('redirect')));
      } catch (err) {
        if (isLinkSpent(err)) {
          go('expired-link');
          return;
        }
        throw err;
      }
    });
  }, [linkToken]);

  // The confirmation link of an email set in the set-email step: /signin?email_token=... Once confirmed,
  // the user signs in with a code sent to the new address.
  const handledEmailToken = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per confirmation token
  useEffect(() => {
    if (!emailToken || handledEmailToken.current === emailToken) return;
    handledEmailToken.current = emailToken;
    void run(async () => {
      const user = await users.confirmEmail(emailToken);
      go('login', { email: user.email, passwordStep: false });
      setNotice(MESSAGES.emailConfirmed);
      setLoginKey((k) => k + 1);
    });
  }, [emailToken]);

  async function sendLink(uid: string, accountantId: string) {
    if (!uid || !accountantId) throw new Error(MESSAGES.somethingWrong);
    const sent = await sessions.sendAuthLink({ uid, accountant_id: accountantId, redirect });
    go('sent-link', { sentTo: sent.sent_to });
  }

  async function sendSms(uid: string) {
    if (!uid) throw new Error(MESSAGES.somethingWrong);
    try {
      const sent = await sessions.sendSmsCode(uid);
      go('sent-text', { sentTo: sent.sent_to });
    } catch (err) {
      if (isApiError(err) && err.status === 429) throw err;
      throw new Error(MESSAGES.smsFailed);
    }
  }

  async function sendEmailCode(uid: string) {
    if (!uid) throw new Error(MESSAGES.somethingWrong);
    const sent = await sessions.sendEmailCode(uid);
    go('sent-email', { sentTo: sent.sent_to });
  }

  async function lookup(email: string) {
    try {
      const found = await sessions.lookupEmail(email);
      setFlow((f) => ({
        ...f,
        email,
        uid: found.uid,
        accountantId: found.accountant_id,
        methods: found.methods ?? [],
      }));
      return found;
    } catch (err) {
      if (isApiError(err) && err.status === 404) throw new Error(MESSAGES.noUser);
      throw err;
    }
  }

  const header = HEADER_OF[state];

  /** The uid and accountant id of the email in hand, looked up when not known yet. */
  async function ensureUser() {
    if (flow.uid && flow.accountantId) return { uid: flow.uid, accountantId: flow.accountantId };
    if (!flow.email) throw new Error(MESSAGES.emailFirst);
    const found = await lookup(flow.email);
    return { uid: found.uid, accountantId: found.accountant_id };
  }
  const hasSms = flow.methods.some((m) => m.name === 'sms');

  return (
    <Center component="main" mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440} data-signin-state={state}>
        {/* A new attempt (any form's submit, valid or not) takes the previous attempt's error away. */}
        <Stack
          gap="md"
          onSubmitCapture={() => {
            setError(null);
            setSmsFailed(false);
          }}
        >
          {(branding?.logo_url || branding?.name) && (
            <Stack align="center" gap={4} data-testid="firm-branding">
              {branding.logo_url && (
                <Image src={branding.logo_url} alt={branding.name} mah={64} w="auto" fit="contain" />
              )}
              {branding.name && (
                <Text fw={600} c="dimmed">
                  {branding.name}
                </Text>
              )}
            </Stack>
          )}
          <Title order={1} size="h2" ta="center">
            {header}
          </Title>
          {notice && (
            <Alert color="teal" role="status" data-testid="signin-notice">
              {notice}
            </Alert>
          )}
          {error && (
            <Alert color="red" role="alert" data-testid="signin-error">
              {error}
            </Alert>
          )}
          {smsFailed && (
            <Button
              variant="light"
              loading={busy}
              onClick={() =>
                run(async () => {
                  const sent = await sessions.forgotPassword(flow.email);
                  go('sent-link', { sentTo: sent.sent_to });
                })
              }
            >
              Reset sign-in method
            </Button>
          )}

          {state === 'login' && (
            <LoginForm
              key={loginKey}
              email={flow.email}
              passwordStep={flow.passwordStep}
              busy={busy}
              onEmail={(email) =>
                run(async () => {
                  const found = await lookup(email);
                  switch (found.preferred_sign_in_method) {
                    case 'password':
                      setFlow((f) => ({ ...f, email, passwordStep: true }));
                      break;
                    case 'email':
                      await sendEmailCode(found.uid);
                      break;
                    case 'sms':
                      await sendSms(found.uid);
                      break;
                    default:
                      await sendLink(found.uid, found.accountant_id);
                  }
                })
              }
              onPassword={(email, password) =>
                run(
                  async () => finish(await sessions.verifyPassword(email, password)),
                  (err) => (isApiError(err) && err.status >= 500 ? MESSAGES.signInProblem : undefined),
                )
              }
              onChangeEmail={() => go('login', { passwordStep: false })}
              onForgot={() => go('forgot-password')}
              onAlternate={() => go('alternate-sign-in')}
            />
          )}

          {(state === 'sent-email' || state === 'sent-text' || state === '2fa') && (
            <CodeForm
              key={state}
              intro={
                state === '2fa'
                  ? `Enter the ${CODE_LENGTH}-digit code we sent${flow.sentTo ? ` to ${flow.sentTo}` : ''}.`
                  : `We sent a ${CODE_LENGTH}-digit code${flow.sentTo ? ` to ${flow.sentTo}` : ''}. Enter it below to sign in.`
              }
              busy={busy}
              onVerify={(code) =>
                run(
                  async () => {
                    if (state === '2fa')
                      await finish(await sessions.verify2faCode(flow.challengeToken, code));
                    else {
                      if (!flow.uid) throw new Error(MESSAGES.somethingWrong);
                      await finish(await sessions.verifyCode(flow.uid, code));
                    }
                  },
                  (err) =>
                    isApiError(err)
                      ? err.status === 401
                        ? MESSAGES.invalidCode
                        : err.status === 429
                          ? undefined
                          : MESSAGES.somethingWrong
                      : undefined,
                )
              }
              onResend={() =>
                run(
                  async () => {
                    if (state === '2fa') {
                      const sent = await sessions.send2faCode(flow.challengeToken);
                      setFlow((f) => ({ ...f, sentTo: sent.sent_to || f.sentTo }));
                    } else if (state === 'sent-text') await sendSms(flow.uid);
                    else await sendEmailCode(flow.uid);
                  },
                  () => (state === 'sent-text' ? undefined : MESSAGES.codeSendFailed),
                )
              }
              secondary={
                state === '2fa' ? (
                  <Anchor
                    component="button"
                    type="button"
                    onClick={() =>
                      run(
                        async () => {
                          const sent = await sessions.send2faLink(flow.challengeToken);
                          go('sent-link', { sentTo: sent.sent_to });
                        },
                        () => MESSAGES.twoFactorLinkFailed,
                      )
                    }
                  >
                    Email me a sign-in link instead
                  </Anchor>
                ) : (
                  <Anchor component="button" type="button" onClick={() => go('alternate-sign-in')}>
                    Sign in another way
                  </Anchor>
                )
              }
            />
          )}

          {state === 'sent-link' && (
            <Stack gap="sm">
              <Text>
                We sent a link{flow.sentTo ? ` to ${flow.sentTo}` : ''}. Open it on this device to continue.
              </Text>
              <Anchor component="button" type="button" onClick={() => go('login', { passwordStep: false })}>
                Back to sign in
              </Anchor>
            </Stack>
          )}

          {state === 'alternate-sign-in' && (
            <Stack gap="sm">
              <Text>Choose another way to sign in{flow.email ? ` as ${flow.email}` : ''}.</Text>
              <Button
                variant="light"
                loading={busy}
                onClick={() =>
                  run(
                    async () => {
                      const user = await ensureUser();
                      await sendLink(user.uid, user.accountantId);
                    },
                    (err) => (isApiError(err) ? MESSAGES.linkSendFailed : undefined),
                  )
                }
              >
                Email me a sign-in link
              </Button>
              <Button
                variant="light"
                loading={busy}
                onClick={() =>
                  run(
                    async () => sendEmailCode((await ensureUser()).uid),
                    (err) => (isApiError(err) ? MESSAGES.codeSendFailed : undefined),
                  )
                }
              >
                Email me a code
              </Button>
              {hasSms && (
                <Button
                  variant="light"
                  loading={busy}
                  onClick={() => run(async () => sendSms((await ensureUser()).uid))}
                >
                  Text me a code
                </Button>
              )}
              <Button
                variant="subtle"
                loading={busy}
                onClick={() =>
                  run(
                    async () => {
                      const sent = await sessions.forgotPassword(flow.email);
                      go('sent-link', { sentTo: sent.sent_to });
                    },
                    () => MESSAGES.linkSendFailed,
                  )
                }
              >
                Send me a password reset email
              </Button>
              <Anchor component="button" type="button" onClick={() => go('login', { passwordStep: false })}>
                Back to sign in
              </Anchor>
            </Stack>
          )}

          {state === 'forgot-password' && (
            <EmailForm
              email={flow.email}
              intro="Enter your email and we will send you a link to reset your password."
              submitLabel="Send reset link"
              busy={busy}
              onSubmit={(email) =>
                run(
                  async () => {
                    const sent = await sessions.forgotPassword(email);
                    go('sent-link', { email, sentTo: sent.sent_to });
                  },
                  () => MESSAGES.linkSendFailed,
                )
              }
              onBack={() => go('login', { passwordStep: false })}
            />
          )}

          {state === 'expired-link' && (
            <ExpiredLink
              email={flow.email}
              busy={busy}
              onLink={(email) =>
                run(
                  async () => {
                    const found = await lookup(email);
                    await sendLink(found.uid, found.accountant_id);
                  },
                  (err) => (isApiError(err) ? MESSAGES.linkSendFailed : undefined),
                )
              }
              onText={(email) =>
                run(async () => {
                  const found = await lookup(email);
                  await sendSms(found.uid);
                })
              }
            />
          )}

          {/* The steps whose code loads on demand (loadLaterSteps): one boundary for the three. */}
          <Suspense fallback={<StepLoading />}>
            {state === 'set-password' && (
              <PasswordForm
                busy={busy}
                onSubmit={(password, confirmation) =>
                  run(async () => {
                    if (flow.passwordMode === 'reset') {
                      let step: SignInStep;
                      try {
                        step = await sessions.resetPassword(flow.grant, password, confirmation);
                      } catch (err) {
                        // The grant ran out (a reload long after the link was opened): a new link.
                        if (!isLinkSpent(err)) throw err;
                        forgetResetGrant();
                        go('expired-link');
                        return;
                      }
                      forgetResetGrant();
                      await finish(step);
                    } else {
                      const set = await sessions.setSignInMethod({
                        method: 'password',
                        password,
                        password_confirmation: confirmation,
                      });
                      await finish({ auth_token: set.auth_token } as SignInStep);
                    }
                  })
                }
              />
            )}

            {state === 'set-sign-in-method' && (
              <MethodChooser
                busy={busy}
                onChoose={(method) => {
                  if (method === 'password') go('set-password', { passwordMode: 'method' });
                  else if (method === 'sms') go('set-phone-number');
                  else
                    void run(async () => {
                      const me = await users.currentUser();
                      if (me.preferences?.has_temp_email) {
                        go('set-email', { uid: me.id });
                        return;
                      }
                      const set = await sessions.setSignInMethod({ method: 'email' });
                      await finish({ auth_token: set.auth_token } as SignInStep);
                    });
                }}
              />
            )}

            {state === 'set-phone-number' && (
              <PhoneForm
                busy={busy}
                onSubmit={(phone) =>
                  run(async () => {
                    const set = await sessions.setSignInMethod({ method: 'sms', phone_number: phone });
                    await finish({ auth_token: set.auth_token } as SignInStep);
                  })
                }
                onBack={() => go('set-sign-in-method')}
              />
            )}
          </Suspense>

          {state === 'set-email' && (
            <>
              {flow.pendingEmail && (
                <Text data-testid="pending-email">
                  We sent a confirmation link to {flow.pendingEmail}. Once you open it, you sign in with a
                  code sent to that address.
                </Text>
              )}
              <EmailForm
                email=""
                intro="Enter the email address you want to sign in with."
                submitLabel="Continue"
                busy={busy}
                onSubmit={(email) =>
                  run(async () => {
                    const saved = await users.updateUser(flow.uid, { email });
                    if (saved.email_confirmation_sent) {
                      // The address is not the user's yet: sign-in by email passcode starts once the
                      // emailed link confirms it (identity switches the method then), not now.
                      const pending = saved.user?.pending_email || email;
                      setFlow((f) => ({ ...f, pendingEmail: pending }));
                      setConfirmationOpen(true);
                      return;
                    }
                    const set = await sessions.setSignInMethod({ method: 'email' });
                    await finish({ auth_token: set.auth_token } as SignInStep);
                  })
                }
                onBack={() => go('set-sign-in-method')}
              />
            </>
          )}
          {confirmationOpen && (
            <Suspense fallback={null}>
              <EmailConfirmationDialog to={flow.pendingEmail} onClose={() => setConfirmationOpen(false)} />
            </Suspense>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

/** While a later step's code loads (it is usually fetched before it is needed). */
function StepLoading() {
  return (
    <Center py="sm">
      <Loader size="sm" aria-label="Loading" />
    </Center>
  );
}

function LoginForm(props: {
  email: string;
  passwordStep: boolean;
  busy: boolean;
  onEmail: (email: string) => void;
  onPassword: (email: string, password: string) => void;
  onChangeEmail: () => void;
  onForgot: () => void;
  onAlternate: () => void;
}) {
  const { field, handleSubmit } = useFields(
    { email: props.email, password: '' },
    {
      email: (v) => (v.trim() ? true : props.passwordStep ? MESSAGES.emailMissing : MESSAGES.emailFirst),
      password: (v) => (!props.passwordStep || v ? true : MESSAGES.passwordMissing),
    },
  );
  const submit = handleSubmit(({ email, password }) => {
    const trimmed = email.trim();
    if (props.passwordStep) props.onPassword(trimmed, password);
    else props.onEmail(trimmed);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          readOnly={props.passwordStep}
          {...field('email')}
        />
        {props.passwordStep && (
          <Suspense fallback={<StepLoading />}>
            <PasswordField
              label="Password"
              autoComplete="current-password"
              autoFocus
              {...field('password')}
            />
          </Suspense>
        )}
        <Button type="submit" loading={props.busy} fullWidth>
          {props.passwordStep ? 'Sign In' : 'Continue'}
        </Button>
        <Group justify="space-between">
          {props.passwordStep ? (
            <>
              <Anchor component="button" type="button" size="sm" onClick={props.onForgot}>
                Forgot password?
              </Anchor>
              <Anchor component="button" type="button" size="sm" onClick={props.onAlternate}>
                Sign in another way
              </Anchor>
            </>
          ) : null}
        </Group>
        {props.passwordStep && (
          <Anchor component="button" type="button" size="sm" onClick={props.onChangeEmail}>
            Use another email
          </Anchor>
        )}
      </Stack>
    </form>
  );
}

function CodeForm(props: {
  intro: string;
  busy: boolean;
  onVerify: (code: string) => void;
  onResend: () => void;
  secondary: ReactNode;
}) {
  const [code, setCode] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (code.length === CODE_LENGTH) props.onVerify(code);
      }}
    >
      <Stack gap="sm">
        <Text>{props.intro}</Text>
        <TextInput
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          value={code}
          onChange={(e) => setCode(e.currentTarget.value.replace(/\s/g, '').slice(0, CODE_LENGTH))}
          autoFocus
        />
        <Button type="submit" disabled={code.length !== CODE_LENGTH} loading={props.busy} fullWidth>
          Verify Code
        </Button>
        <Group justify="space-between">
          <Anchor component="button" type="button" size="sm" onClick={props.onResend}>
            Resend code
          </Anchor>
          {props.secondary}
        </Group>
      </Stack>
    </form>
  );
}

function EmailForm(props: {
  email: string;
  intro: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (email: string) => void;
  onBack: () => void;
}) {
  const { field, handleSubmit } = useFields(
    { email: props.email },
    { email: (v) => (v.trim() ? true : MESSAGES.emailMissing) },
  );
  return (
    <form onSubmit={handleSubmit(({ email }) => props.onSubmit(email.trim()))} noValidate>
      <Stack gap="sm">
        <Text>{props.intro}</Text>
        <TextInput label="Email" type="email" autoComplete="email" {...field('email')} />
        <Button type="submit" loading={props.busy} fullWidth>
          {props.submitLabel}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={props.onBack}>
          Back
        </Anchor>
      </Stack>
    </form>
  );
}

function ExpiredLink(props: {
  email: string;
  busy: boolean;
  onLink: (email: string) => void;
  onText: (email: string) => void;
}) {
  const { field, handleSubmit } = useFields(
    { email: props.email },
    { email: (v) => (v.trim() ? true : MESSAGES.emailFirst) },
  );
  const withEmail = (fn: (email: string) => void) => handleSubmit(({ email }) => fn(email.trim()));
  return (
    <Stack gap="sm">
      <Text>This link has expired or was already used. Get a new one:</Text>
      <TextInput label="Email" type="email" {...field('email')} />
      <Button loading={props.busy} onClick={withEmail(props.onLink)}>
        Email me a new link
      </Button>
      <Button variant="light" loading={props.busy} onClick={withEmail(props.onText)}>
        Text me a code
      </Button>
    </Stack>
  );
}
