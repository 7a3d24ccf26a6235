import {
  Alert,
  Anchor,
  Button,
  Center,
  Image,
  isApiError,
  Paper,
  type SignInStep,
  Stack,
  Text,
  Title,
} from '@portico/kit/signin';
import { lazy, Suspense, startTransition, useEffect, useRef, useState } from 'react';
import { useShellRuntime } from '../app/services.js';
import { useThemePrimary } from '../app/theme-context.js';
import { CodeForm, EmailForm, ExpiredLink, LoginForm, loadLaterSteps, StepLoading } from './first-steps.js';
import { CODE_LENGTH, MESSAGES } from './messages.js';
import { useSignInNavigation } from './navigation.js';
import { rememberedFirm } from './remembered-firm.js';
import { HEADER_OF, type SignInState } from './states.js';
import { useFirmBranding } from './useFirmBranding.js';
import { isChallengeGone, isLinkSpent, useSignInFlow } from './useSignInFlow.js';

// Only the set-email step needs it, after sign-in, when the shell has loaded the whole kit anyway: it stays
// out of the sign-in page's first load.
const EmailConfirmationDialog = lazy(() => loadLaterSteps().then((m) => ({ default: m.ConfirmationDialog })));

// The steps after the first load on demand (first-steps.tsx).
const PasswordForm = lazy(() => loadLaterSteps().then((m) => ({ default: m.PasswordForm })));
const PhoneForm = lazy(() => loadLaterSteps().then((m) => ({ default: m.PhoneForm })));
const MethodChooser = lazy(() => loadLaterSteps().then((m) => ({ default: m.MethodChooser })));
const SignOutLink = lazy(() => loadLaterSteps().then((m) => ({ default: m.SignOutLink })));

export interface SignInPageProps {
  /** '/set-sign-in-method' opens on that state (signed in, set_password_required). */
  initial?: SignInState;
}

/** /signin and /set-sign-in-method: every state of spec 1 s.2.3 and the flow of s.4.4. */
export function SignInPage({ initial = 'login' }: SignInPageProps) {
  const { config } = useShellRuntime();
  const { params } = useSignInNavigation();
  const {
    state,
    redirect,
    flow,
    setFlow,
    error,
    notice,
    busy,
    smsFailed,
    loginKey,
    hasSms,
    clearError,
    go,
    leave,
    abandon,
    run,
    withChallenge,
    setNotice,
    sessions,
    users,
    finish,
    methodSet,
    lookup,
    ensureUser,
    sendLink,
    sendSms,
    sendEmailCode,
    forgetGrant,
    confirmationLeftBehind,
  } = useSignInFlow(initial);
  /** The set-email step's confirmation dialog (for flow.pendingEmail). */
  const [confirmationOpen, setConfirmationOpen] = useState(false);
  // The address's firm, else the deployment's, else the last one signed in here (read once, and only
  // when needed: a first read of localStorage waits for the browser to load the site's storage).
  const named = params.get('firm') ?? config.firmSlug;
  const [remembered] = useState(() => (named ? undefined : rememberedFirm()));
  const slug = named ?? remembered ?? '';
  const setPrimary = useThemePrimary();

  const branding = useFirmBranding(slug);
  useEffect(() => {
    // A transition, as the branding itself (see useFirmBranding): the whole page re-renders in the theme.
    const primary = branding?.primary;
    if (primary) startTransition(() => setPrimary(primary));
  }, [branding, setPrimary]);

  const header = HEADER_OF[state];

  // A new step takes the focus (its heading, read out), unless one of its own fields already took it:
  // the control that moved the page on is usually gone with the previous step.
  const heading = useRef<HTMLHeadingElement>(null);
  const step = flow.passwordStep ? `${state}:password` : state;
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    const card = heading.current?.closest('[data-signin-state]');
    if (!card?.contains(document.activeElement)) heading.current?.focus();
  }, [step]);

  return (
    <Center component="main" mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440} data-signin-state={state}>
        {/* A new attempt (any form's submit, valid or not) takes the previous attempt's error away. */}
        <Stack gap="md" onSubmitCapture={clearError}>
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
          <div>
            <Title ref={heading} tabIndex={-1} order={1} size="h2" ta="center">
              {header}
            </Title>
            {/* On the page from the start, empty until a notice: a status region that appears already
                holding its text is often not announced. Beside the heading, so that empty it takes no gap. */}
            <div role="status" data-testid="signin-notice">
              {notice && (
                <Alert color="teal" role="none" mt="md">
                  {notice}
                </Alert>
              )}
            </div>
          </div>
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
              onChangeEmail={() => leave('login', { passwordStep: false })}
              onForgot={() => leave('forgot-password')}
              onAlternate={() => leave('alternate-sign-in')}
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
                      await finish(
                        await withChallenge((challenge) => sessions.verify2faCode(challenge, code)),
                      );
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
                      const sent = await withChallenge((challenge) => sessions.send2faCode(challenge));
                      setFlow((f) => ({ ...f, sentTo: sent.sent_to || f.sentTo }));
                    } else if (state === 'sent-text') await sendSms(flow.uid);
                    else await sendEmailCode(flow.uid);
                    setNotice(MESSAGES.codeResent);
                  },
                  (err) =>
                    state === 'sent-text' || isChallengeGone(err) ? undefined : MESSAGES.codeSendFailed,
                )
              }
              secondary={
                state === '2fa' ? (
                  <Anchor
                    component="button"
                    type="button"
                    disabled={busy}
                    onClick={() =>
                      run(
                        async () => {
                          const sent = await withChallenge((challenge) =>
                            sessions.send2faLink(challenge, redirect),
                          );
                          go('sent-link', { sentTo: sent.sent_to });
                        },
                        (err) => (isChallengeGone(err) ? undefined : MESSAGES.twoFactorLinkFailed),
                      )
                    }
                  >
                    Email me a sign-in link instead
                  </Anchor>
                ) : (
                  <Anchor
                    component="button"
                    type="button"
                    disabled={busy}
                    onClick={() => leave('alternate-sign-in')}
                  >
                    Sign in another way
                  </Anchor>
                )
              }
            />
          )}
          {state === '2fa' && (
            <Anchor
              component="button"
              type="button"
              size="sm"
              disabled={busy}
              onClick={() => leave('login', { passwordStep: false, challengeToken: '' })}
            >
              Back to sign in
            </Anchor>
          )}

          {state === 'sent-link' && (
            <Stack gap="sm">
              <Text>
                We sent a link{flow.sentTo ? ` to ${flow.sentTo}` : ''}. Open it on this device to continue.
              </Text>
              {confirmationLeftBehind && (
                <Text data-testid="confirmation-left-behind">{MESSAGES.confirmationLeftBehind}</Text>
              )}
              <Anchor
                component="button"
                type="button"
                disabled={busy}
                onClick={() => leave('login', { passwordStep: false })}
              >
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
              <Anchor
                component="button"
                type="button"
                disabled={busy}
                onClick={() => leave('login', { passwordStep: false })}
              >
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
              onBack={() => leave('login', { passwordStep: false })}
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
                        forgetGrant();
                        go('expired-link');
                        return;
                      }
                      // Set: a two-factor step may follow on this page, whose reload must not post the link.
                      forgetGrant();
                      await finish(step);
                    } else {
                      const set = await sessions.setSignInMethod({
                        method: 'password',
                        password,
                        password_confirmation: confirmation,
                      });
                      await methodSet(set);
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
                      await methodSet(set);
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
                    await methodSet(set);
                  })
                }
                onBack={() => leave('set-sign-in-method')}
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
                newAddress
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
                    await methodSet(set);
                  })
                }
                onBack={() => leave('set-sign-in-method')}
              />
            </>
          )}
          {/* Opened signed in (set_password_required): leaving it signed in would let the next person at
              this browser choose a method for this user. */}
          {initial === 'set-sign-in-method' && (
            <Suspense fallback={null}>
              <SignOutLink onSignOut={abandon} />
            </Suspense>
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
