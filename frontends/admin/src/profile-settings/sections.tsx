import {
  Button,
  CURRENT_PASSWORD_MESSAGES,
  CURRENT_USER_KEY,
  CurrentPasswordInput,
  type CurrentUser,
  changesHowAccountIsReached,
  confirmsWithPassword,
  errorMessage,
  Group,
  isApiError,
  type OutOfOfficeChanges,
  PASSWORD_HINT,
  Paper,
  PasswordInput,
  PhoneInput,
  passwordProblem,
  pendingEmailProps,
  phoneDigits,
  Radio,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
  toast,
  useApi,
  useCancelEmailChange,
  usePendingEmail,
} from '@portico/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useForm } from 'react-hook-form';
import {
  SETTINGS_MESSAGES,
  SIGN_IN_METHODS,
  type SignInMethod,
  validateEmail,
  validateOptionalPhone,
} from './rules.js';
import { useProfileSave } from './useProfileSave.js';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title} data-testid={testId}>
      <Stack gap="md">
        <Title order={2} size="h3">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/**
 * Puts focus back once a save has settled, if it was lost meanwhile: on the first of `targets` still on
 * the page. A loading button is disabled, which moves focus off it, and a save may close the part of the
 * section the focused button was in. Focus the user has put somewhere since is left where it is.
 */
function useFocusAfterSave(pending: boolean, ...targets: RefObject<HTMLElement | null>[]) {
  const wasPending = useRef(pending);
  useEffect(() => {
    if (wasPending.current && !pending) {
      const active = document.activeElement;
      if (!active || active === document.body) targets.find((t) => t.current?.isConnected)?.current?.focus();
    }
    wasPending.current = pending;
  });
}

/**
 * A failed save: `show` puts its messages on the page at once, then focus goes to the first field that
 * has one, in the order the section shows them (`fields`: each field's message and input). Focus lands
 * on a field already marked invalid and described by its message, so a screen reader reads them together.
 */
function showErrors(show: () => void, fields: [string | undefined, RefObject<HTMLElement | null>][]) {
  flushSync(show);
  fields.find(([message, input]) => message && input.current)?.[1].current?.focus();
}

type Fields<T> = (fields: Record<string, string>, set: (k: keyof T & string, m: string) => void) => void;
const applyFields =
  <T,>(keys: (keyof T & string)[]): Fields<T> =>
  (fields, set) => {
    for (const [k, m] of Object.entries(fields))
      if ((keys as string[]).includes(k)) set(k as keyof T & string, m);
  };

interface NameValues {
  fname: string;
  lname: string;
  preferred_name: string;
}

const namesOf = (user: CurrentUser): NameValues => ({
  fname: user.fname,
  lname: user.lname,
  preferred_name: user.preferred_name,
});

export function NameSection({ user }: { user: CurrentUser }) {
  const { register, handleSubmit, formState, setError, reset } = useForm<NameValues>({
    defaultValues: namesOf(user),
  });
  // The names as last loaded: a save sends only those changed, not back what someone else replaced.
  const [loaded, setLoaded] = useState(() => namesOf(user));
  const save = useProfileSave(user.id, {
    onSaved: (r) => {
      if (!r.user) return;
      setLoaded(namesOf(r.user));
      reset(namesOf(r.user));
    },
    onFields: (f) =>
      applyFields<NameValues>(['fname', 'lname', 'preferred_name'])(f, (k, message) =>
        setError(k as keyof NameValues, { type: 'server', message }),
      ),
  });
  const saveButton = useRef<HTMLButtonElement>(null);
  useFocusAfterSave(save.isPending, saveButton);
  const required = (v: string) => (v.trim() ? true : SETTINGS_MESSAGES.nameRequired);
  return (
    <Section title="Name" testId="settings-name">
      <form
        noValidate
        onSubmit={handleSubmit((v) => {
          const keys = Object.keys(loaded) as (keyof NameValues)[];
          const changed = keys.filter((k) => v[k].trim() !== loaded[k]);
          if (!changed.length) {
            toast.info(SETTINGS_MESSAGES.noChanges);
            return;
          }
          save.mutate(Object.fromEntries(changed.map((k) => [k, v[k].trim()])));
        })}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput
              label="First Name"
              error={formState.errors.fname?.message}
              {...register('fname', { validate: required })}
            />
            <TextInput
              label="Last Name"
              error={formState.errors.lname?.message}
              {...register('lname', { validate: required })}
            />
            <TextInput
              label="Preferred Name"
              error={formState.errors.preferred_name?.message}
              {...register('preferred_name')}
            />
          </SimpleGrid>
          <Group>
            <Button ref={saveButton} type="submit" loading={save.isPending}>
              Save Name
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

export function ContactSection({
  user,
  onConfirmationSent,
}: {
  user: CurrentUser;
  /** A save sent a confirmation link to this new address (the page shows the dialog that says so). */
  onConfirmationSent: (to: string) => void;
}) {
  const queryClient = useQueryClient();
  const saved = { email: user.email, phone: phoneDigits(user.phone_number) };
  const [loaded, setLoaded] = useState(saved);
  const [email, setEmail] = useState(saved.email);
  const [phone, setPhone] = useState(saved.phone);
  // Saved elsewhere on the page (the sign-in method's phone is this phone): a field not edited here takes
  // the saved value, so the section stays mounted (and focus in it) and sends nothing stale.
  if (saved.email !== loaded.email || saved.phone !== loaded.phone) {
    setLoaded(saved);
    if (email === loaded.email) setEmail(saved.email);
    if (phone === loaded.phone) setPhone(saved.phone);
  }
  const [currentPassword, setCurrentPassword] = useState('');
  // Identity asked for the password where the section judged it needless (the account changed elsewhere).
  const [passwordAskedBack, setPasswordAskedBack] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; phone_number?: string; current_password?: string }>(
    {},
  );
  const { pending, answer: pendingAnswered } = usePendingEmail(user);
  // Only what was changed here is sent: identity reads an absent field as unchanged.
  const changes = {
    ...(email.trim() !== loaded.email ? { email: email.trim() } : {}),
    ...(phone !== loaded.phone ? { phone_number: phone } : {}),
  };
  // A new email or phone of the user's own is confirmed with the password they sign in with.
  const asksPassword =
    passwordAskedBack || (confirmsWithPassword(user) && changesHowAccountIsReached(user, changes));
  const emailInput = useRef<HTMLInputElement>(null);
  const phoneInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const inputsInError = (found: typeof errors): [string | undefined, RefObject<HTMLElement | null>][] => [
    [found.email, emailInput],
    [found.phone_number, phoneInput],
    [found.current_password, passwordInput],
  ];
  const save = useProfileSave(user.id, {
    onSaved: (r) => {
      if (r.user) {
        pendingAnswered(r.user);
        setEmail(r.user.email);
        setPhone(phoneDigits(r.user.phone_number));
      }
      setCurrentPassword('');
      setPasswordAskedBack(false);
      if (r.email_confirmation_sent) onConfirmationSent(r.user?.pending_email || email.trim());
    },
    onFields: (f) => {
      const refused = { email: f.email, phone_number: f.phone_number, current_password: f.current_password };
      showErrors(() => {
        setErrors(refused);
        if (f.current_password) setPasswordAskedBack(true);
      }, inputsInError(refused));
      if (f.current_password) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
  const saveButton = useRef<HTMLButtonElement>(null);
  useFocusAfterSave(save.isPending, saveButton);
  // Only the note changes: Email and Phone keep what the user typed. The note and its button go, so
  // focus moves to the field the change was about.
  const cancelEmailChange = useCancelEmailChange(user.id, (answer) => {
    pendingAnswered(answer);
    emailInput.current?.focus();
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problems = {
      email: validateEmail(email),
      // A phone left as saved is not judged again (identity took it, perhaps before the area-code rule).
      phone_number: phone === loaded.phone ? undefined : validateOptionalPhone(phone),
      current_password: asksPassword && !currentPassword ? CURRENT_PASSWORD_MESSAGES.missing : undefined,
    };
    showErrors(() => setErrors(problems), inputsInError(problems));
    if (Object.values(problems).some(Boolean)) return;
    if (!Object.keys(changes).length) {
      toast.info(SETTINGS_MESSAGES.noChanges);
      return;
    }
    save.mutate(asksPassword ? { ...changes, current_password: currentPassword } : changes);
  };
  return (
    <Section title="Contact" testId="settings-contact">
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              ref={emailInput}
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={errors.email}
              {...pendingEmailProps({
                pending,
                onWithdraw: () => cancelEmailChange.mutate(),
                withdrawing: cancelEmailChange.isPending || save.isPending,
              })}
            />
            <PhoneInput
              ref={phoneInput}
              label="Phone Number"
              value={phone}
              onChange={setPhone}
              error={errors.phone_number}
            />
          </SimpleGrid>
          {asksPassword && (
            <CurrentPasswordInput
              ref={passwordInput}
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={errors.current_password}
              // The library's password field ties its message (aria-describedby) but does not mark it invalid.
              aria-invalid={!!errors.current_password || undefined}
            />
          )}
          <Group>
            <Button ref={saveButton} type="submit" loading={save.isPending} disabled={!email.trim()}>
              Save Contact
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

export function OutOfOfficeSection({ user }: { user: CurrentUser }) {
  const [on, setOn] = useState(user.out_of_office);
  const [message, setMessage] = useState(user.out_of_office_message);
  const [error, setError] = useState<string | undefined>();
  const api = useApi();
  const messageInput = useRef<HTMLTextAreaElement>(null);
  const save = useProfileSave(user.id, {
    onFields: (f) => {
      const refused = f.out_of_office_message ?? f.out_of_office;
      showErrors(() => setError(refused), [[refused, messageInput]]);
    },
    // The switch and its message, as submit gives them.
    send: (changes) => api.users.setOutOfOffice(user.id, changes as OutOfOfficeChanges),
  });
  const saveButton = useRef<HTMLButtonElement>(null);
  useFocusAfterSave(save.isPending, saveButton);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (on && !message.trim()) {
      showErrors(
        () => setError(SETTINGS_MESSAGES.outOfOfficeMessageRequired),
        [[SETTINGS_MESSAGES.outOfOfficeMessageRequired, messageInput]],
      );
      return;
    }
    setError(undefined);
    save.mutate({ out_of_office: on, out_of_office_message: message.trim() });
  };
  return (
    <Section title="Out of Office" testId="settings-out-of-office">
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <Switch label="Out of office" checked={on} onChange={(e) => setOn(e.currentTarget.checked)} />
          <Textarea
            ref={messageInput}
            label="Out-of-office message"
            description="Clients see this message in their conversations with you while you are out of office."
            rows={3}
            maxLength={2000}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            error={error}
          />
          <Group>
            <Button ref={saveButton} type="submit" loading={save.isPending}>
              Save Out of Office
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

export function SignInMethodSection({ user }: { user: CurrentUser }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const saved = {
    method: SIGN_IN_METHODS.find((m) => m.value === user.preferred_sign_in_method)?.value ?? 'password',
    phone: phoneDigits(user.phone_number),
  };
  const [loaded, setLoaded] = useState(saved);
  const [method, setMethod] = useState<SignInMethod>(saved.method);
  const [phone, setPhone] = useState(saved.phone);
  // Saved by this section or elsewhere on the page (Contact's phone is this phone): what was not edited
  // here takes the saved value, and the section stays mounted, focus in it.
  if (saved.method !== loaded.method || saved.phone !== loaded.phone) {
    setLoaded(saved);
    if (method === loaded.method) setMethod(saved.method);
    if (phone === loaded.phone) setPhone(saved.phone);
  }
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  // Identity asks a user who signs in with a password to confirm a change with it; or it asked where
  // this section judged it needless (the account changed elsewhere).
  const [passwordAskedBack, setPasswordAskedBack] = useState(false);
  const confirmsChange = passwordAskedBack || confirmsWithPassword(user);
  const [errors, setErrors] = useState<{
    password?: string;
    password_confirmation?: string;
    phone_number?: string;
    current_password?: string;
  }>({});
  const newPasswordInput = useRef<HTMLInputElement>(null);
  const confirmationInput = useRef<HTMLInputElement>(null);
  const phoneInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const inputsInError = (found: typeof errors): [string | undefined, RefObject<HTMLElement | null>][] => [
    [found.password, newPasswordInput],
    [found.password_confirmation, confirmationInput],
    [found.phone_number, phoneInput],
    [found.current_password, passwordInput],
  ];
  const save = useMutation({
    mutationFn: () => {
      const proof = confirmsChange ? { current_password: currentPassword } : {};
      return api.sessions.setSignInMethod(
        method === 'password'
          ? { method, password, password_confirmation: confirmation, ...proof }
          : method === 'sms'
            ? { method, phone_number: phone, ...proof }
            : { method, ...proof },
      );
    },
    onSuccess: () => {
      toast.success(SETTINGS_MESSAGES.signInMethodSaved);
      setPassword('');
      setConfirmation('');
      setCurrentPassword('');
      setPasswordAskedBack(false);
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
    onError: (err) => {
      toast.error(errorMessage(err));
      if (!isApiError(err) || !err.fields) return;
      const fields = err.fields;
      showErrors(() => {
        setErrors(fields);
        if (fields.current_password) setPasswordAskedBack(true);
      }, inputsInError(fields));
      if (fields.current_password) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
  const saveButton = useRef<HTMLButtonElement>(null);
  useFocusAfterSave(save.isPending, saveButton);
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const next: typeof errors = {};
    if (method === 'password') {
      const problem = passwordProblem(password, confirmation);
      if (problem === SETTINGS_MESSAGES.passwordsDoNotMatch) next.password_confirmation = problem;
      else if (problem) next.password = problem;
    }
    if (method === 'sms') {
      if (!phoneDigits(phone)) next.phone_number = SETTINGS_MESSAGES.phoneRequired;
      else next.phone_number = validateOptionalPhone(phone);
    }
    if (confirmsChange && !currentPassword) next.current_password = CURRENT_PASSWORD_MESSAGES.missing;
    showErrors(() => setErrors(next), inputsInError(next));
    if (Object.values(next).some(Boolean)) return;
    save.mutate();
  };
  return (
    <Section title="Sign-in Method" testId="settings-sign-in-method">
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <Radio.Group
            label="How do you want to sign in?"
            value={method}
            onChange={(v) => {
              setMethod(v as SignInMethod);
              setErrors({});
            }}
            name="sign-in-method"
          >
            <Group mt="xs">
              {SIGN_IN_METHODS.map((m) => (
                <Radio key={m.value} value={m.value} label={m.label} />
              ))}
            </Group>
          </Radio.Group>
          {method === 'password' && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <PasswordInput
                ref={newPasswordInput}
                label="New password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
                aria-invalid={!!errors.password || undefined}
                description={PASSWORD_HINT}
              />
              <PasswordInput
                ref={confirmationInput}
                label="Confirm password"
                autoComplete="new-password"
                value={confirmation}
                onChange={(e) => setConfirmation(e.currentTarget.value)}
                error={errors.password_confirmation}
                aria-invalid={!!errors.password_confirmation || undefined}
              />
            </SimpleGrid>
          )}
          {method === 'sms' && (
            <PhoneInput
              ref={phoneInput}
              label="Phone for sign-in codes"
              value={phone}
              onChange={setPhone}
              error={errors.phone_number}
            />
          )}
          {method === 'email' && (
            <Text size="sm">We will email you a six-digit code each time you sign in.</Text>
          )}
          {confirmsChange && (
            <CurrentPasswordInput
              ref={passwordInput}
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={errors.current_password}
              aria-invalid={!!errors.current_password || undefined}
            />
          )}
          <Group>
            <Button ref={saveButton} type="submit" loading={save.isPending}>
              Save Sign-in Method
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

export function TwoFactorSection({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const forced = user.two_factor_forced;
  const [on, setOn] = useState(user.enabled_2fa);
  // Turning two-factor off is confirmed with the password (identity asks for it); on takes one click.
  const [confirmingOff, setConfirmingOff] = useState(false);
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const save = useProfileSave(user.id, {
    onSaved: (r) => {
      if (r.user) setOn(r.user.enabled_2fa);
      setConfirmingOff(false);
      setCurrentPassword('');
    },
    onFields: (f) => {
      showErrors(() => {
        setError(f.current_password ?? f.enabled_2fa);
        // Asked for where the section judged it needless (the account changed elsewhere): ask it here.
        if (f.current_password) setConfirmingOff(true);
      }, [[f.current_password, passwordInput]]);
      if (f.current_password) void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
  const toggle = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  // Focus lost in a save goes to the password while it is asked for, else to the switch: turned off, the
  // confirmation closes with its focused button.
  useFocusAfterSave(save.isPending, passwordInput, toggle);
  const turnOff = (e: React.FormEvent) => {
    e.preventDefault();
    if (!currentPassword) {
      showErrors(
        () => setError(CURRENT_PASSWORD_MESSAGES.missing),
        [[CURRENT_PASSWORD_MESSAGES.missing, passwordInput]],
      );
      return;
    }
    setError(undefined);
    save.mutate({ enabled_2fa: false, current_password: currentPassword });
  };
  return (
    <Section title="Two-Factor Authentication" testId="settings-two-factor">
      <Switch
        ref={toggle}
        label="Two-Factor Authentication"
        description={
          forced
            ? SETTINGS_MESSAGES.twoFactorForced
            : 'After your password, we email you a code to finish signing in.'
        }
        checked={forced || (on && !confirmingOff)}
        disabled={forced || save.isPending}
        onChange={(e) => {
          const next = e.currentTarget.checked;
          if (!next && confirmsWithPassword(user)) {
            setConfirmingOff(true);
            return;
          }
          setConfirmingOff(false);
          setOn(next);
          save.mutate({ enabled_2fa: next }, { onError: () => setOn(!next) });
        }}
      />
      {confirmingOff && (
        <form noValidate onSubmit={turnOff}>
          <Stack gap="sm">
            <CurrentPasswordInput
              ref={passwordInput}
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={error}
              aria-invalid={!!error || undefined}
            />
            <Group>
              <Button type="submit" loading={save.isPending}>
                Turn off two-factor
              </Button>
              <Button
                variant="default"
                disabled={save.isPending}
                onClick={() => {
                  setConfirmingOff(false);
                  setCurrentPassword('');
                  setError(undefined);
                  // This button goes with the confirmation: focus stays on the switch it answers.
                  toggle.current?.focus();
                }}
              >
                Keep it on
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Section>
  );
}
