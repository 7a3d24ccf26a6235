import {
  Anchor,
  Button,
  Center,
  emailProblem,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
} from '@portico/kit/signin';
import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { CODE_LENGTH, MESSAGES } from './messages.js';
import { useFields } from './useFields.js';

// The forms of the sign-in page's first load (the email, the codes, an email for a link, an expired
// link), with the page's own part of the kit. The later steps are in later-steps.tsx, loaded on demand.

// The steps after the first (a password, a new password, a phone number, the sign-in method chooser) and
// their components (Mantine's password input and radios, the kit's phone input) are not part of the page's
// first load: SignInFirst fetches them once the form is on screen, with the rest of the kit.
export const loadLaterSteps = () => import('./later-steps.js');
const PasswordField = lazy(() => loadLaterSteps().then((m) => ({ default: m.PasswordField })));

/** While a later step's code loads (it is usually fetched before it is needed). */
export function StepLoading() {
  return (
    <Center py="sm">
      <Loader size="sm" aria-label="Loading" />
    </Center>
  );
}

export function LoginForm(props: {
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
              <Anchor
                component="button"
                type="button"
                size="sm"
                disabled={props.busy}
                onClick={props.onForgot}
              >
                Forgot password?
              </Anchor>
              <Anchor
                component="button"
                type="button"
                size="sm"
                disabled={props.busy}
                onClick={props.onAlternate}
              >
                Sign in another way
              </Anchor>
            </>
          ) : null}
        </Group>
        {props.passwordStep && (
          <Anchor
            component="button"
            type="button"
            size="sm"
            disabled={props.busy}
            onClick={props.onChangeEmail}
          >
            Use another email
          </Anchor>
        )}
      </Stack>
    </form>
  );
}

export function CodeForm(props: {
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
          {/* Not while a request is out: each click would send another code. */}
          <Anchor component="button" type="button" size="sm" onClick={props.onResend} disabled={props.busy}>
            Resend code
          </Anchor>
          {props.secondary}
        </Group>
      </Stack>
    </form>
  );
}

export function EmailForm(props: {
  email: string;
  intro: string;
  submitLabel: string;
  busy: boolean;
  /** The email the user will sign in with (set-email: spec 2 s.5's messages), not one to look up. */
  newAddress?: boolean;
  onSubmit: (email: string) => void;
  onBack: () => void;
}) {
  const { field, handleSubmit } = useFields(
    { email: props.email },
    {
      email: (v) => (props.newAddress ? (emailProblem(v) ?? true) : v.trim() ? true : MESSAGES.emailMissing),
    },
  );
  return (
    <form onSubmit={handleSubmit(({ email }) => props.onSubmit(email.trim()))} noValidate>
      <Stack gap="sm">
        <Text>{props.intro}</Text>
        <TextInput label="Email" type="email" autoComplete="email" {...field('email')} />
        <Button type="submit" loading={props.busy} fullWidth>
          {props.submitLabel}
        </Button>
        <Anchor component="button" type="button" size="sm" disabled={props.busy} onClick={props.onBack}>
          Back
        </Anchor>
      </Stack>
    </form>
  );
}

export function ExpiredLink(props: {
  email: string;
  busy: boolean;
  onLink: (email: string) => void;
  onText: (email: string) => void;
}) {
  const { field, handleSubmit } = useFields(
    { email: props.email },
    { email: (v) => (v.trim() ? true : MESSAGES.emailFirst) },
  );
  // Text me a code submits the form too (the page clears the last attempt's error on a submit); this
  // says which of the two asked, for that submit only.
  const textAsked = useRef(false);
  return (
    <form
      noValidate
      onSubmit={(event) => {
        const send = textAsked.current ? props.onText : props.onLink;
        textAsked.current = false;
        handleSubmit(({ email }) => send(email.trim()))(event);
      }}
    >
      <Stack gap="sm">
        <Text>This link has expired or was already used. Get a new one:</Text>
        <TextInput label="Email" type="email" autoComplete="email" {...field('email')} />
        <Button type="submit" loading={props.busy}>
          Email me a new link
        </Button>
        <Button
          type="button"
          variant="light"
          loading={props.busy}
          onClick={(event) => {
            textAsked.current = true;
            event.currentTarget.form?.requestSubmit();
          }}
        >
          Text me a code
        </Button>
      </Stack>
    </form>
  );
}
