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
} from '@portico/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
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

export function NameSection({ user }: { user: CurrentUser }) {
  const { register, handleSubmit, formState, setError, reset } = useForm<NameValues>({
    defaultValues: { fname: user.fname, lname: user.lname, preferred_name: user.preferred_name },
  });
  const save = useProfileSave(user.id, {
    onSaved: (r) =>
      r.user && reset({ fname: r.user.fname, lname: r.user.lname, preferred_name: r.user.preferred_name }),
    onFields: (f) =>
      applyFields<NameValues>(['fname', 'lname', 'preferred_name'])(f, (k, message) =>
        setError(k as keyof NameValues, { type: 'server', message }),
      ),
  });
  const required = (v: string) => (v.trim() ? true : SETTINGS_MESSAGES.nameRequired);
  return (
    <Section title="Name" testId="settings-name">
      <form
        noValidate
        onSubmit={handleSubmit((v) =>
          save.mutate({
            fname: v.fname.trim(),
            lname: v.lname.trim(),
            preferred_name: v.preferred_name.trim(),
          }),
        )}
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
            <Button type="submit" loading={save.isPending}>
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
  const [email, setEmail] = useState(user.email);
  const [phone, setPhone] = useState(phoneDigits(user.phone_number));
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; phone_number?: string; current_password?: string }>(
    {},
  );
  // A new email or phone of the user's own is confirmed with the password they sign in with.
  const asksPassword =
    confirmsWithPassword(user) && changesHowAccountIsReached(user, { email, phone_number: phone });
  const save = useProfileSave(user.id, {
    onSaved: (r) => {
      if (r.user) {
        setEmail(r.user.email);
        setPhone(phoneDigits(r.user.phone_number));
      }
      setCurrentPassword('');
      if (r.email_confirmation_sent) onConfirmationSent(r.user?.pending_email || email.trim());
    },
    onFields: (f) =>
      setErrors({ email: f.email, phone_number: f.phone_number, current_password: f.current_password }),
  });
  const pending = save.data?.user?.pending_email ?? user.pending_email;
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const problems = {
      email: validateEmail(email),
      phone_number: validateOptionalPhone(phone),
      current_password: asksPassword && !currentPassword ? CURRENT_PASSWORD_MESSAGES.missing : undefined,
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean)) return;
    save.mutate({
      email: email.trim(),
      phone_number: phone,
      ...(asksPassword ? { current_password: currentPassword } : {}),
    });
  };
  return (
    <Section title="Contact" testId="settings-contact">
      <form noValidate onSubmit={submit}>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Email"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={errors.email}
              description={pending ? `Waiting for confirmation of ${pending}` : undefined}
            />
            <PhoneInput label="Phone Number" value={phone} onChange={setPhone} error={errors.phone_number} />
          </SimpleGrid>
          {asksPassword && (
            <CurrentPasswordInput
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={errors.current_password}
            />
          )}
          <Group>
            <Button type="submit" loading={save.isPending} disabled={!email.trim()}>
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
  const save = useProfileSave(user.id, {
    onFields: (f) => setError(f.out_of_office_message ?? f.out_of_office),
    // The switch and its message, as submit gives them.
    send: (changes) => api.users.setOutOfOffice(user.id, changes as OutOfOfficeChanges),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (on && !message.trim()) {
      setError(SETTINGS_MESSAGES.outOfOfficeMessageRequired);
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
            label="Out-of-office message"
            description="Clients see this message in their conversations with you while you are out of office."
            rows={3}
            maxLength={2000}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            error={error}
          />
          <Group>
            <Button type="submit" loading={save.isPending}>
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
  const current = (['password', 'sms', 'email'] as const).find((m) => m === user.preferred_sign_in_method);
  const [method, setMethod] = useState<SignInMethod>(current ?? 'password');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  // Identity asks a user who signs in with a password to confirm a change with it.
  const confirmsChange = confirmsWithPassword(user);
  const [phone, setPhone] = useState(phoneDigits(user.phone_number));
  const [errors, setErrors] = useState<{
    password?: string;
    password_confirmation?: string;
    phone_number?: string;
    current_password?: string;
  }>({});
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
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
    onError: (err) => {
      toast.error(errorMessage(err));
      if (isApiError(err) && err.fields) setErrors(err.fields);
    },
  });
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
    setErrors(next);
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
                label="New password"
                autoComplete="new-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
                description={PASSWORD_HINT}
              />
              <PasswordInput
                label="Confirm password"
                autoComplete="new-password"
                value={confirmation}
                onChange={(e) => setConfirmation(e.currentTarget.value)}
                error={errors.password_confirmation}
              />
            </SimpleGrid>
          )}
          {method === 'sms' && (
            <PhoneInput
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
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={errors.current_password}
            />
          )}
          <Group>
            <Button type="submit" loading={save.isPending}>
              Save Sign-in Method
            </Button>
          </Group>
        </Stack>
      </form>
    </Section>
  );
}

export function TwoFactorSection({ user }: { user: CurrentUser }) {
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
    onFields: (f) => setError(f.current_password ?? f.enabled_2fa),
  });
  const turnOff = (e: React.FormEvent) => {
    e.preventDefault();
    if (!currentPassword) {
      setError(CURRENT_PASSWORD_MESSAGES.missing);
      return;
    }
    setError(undefined);
    save.mutate({ enabled_2fa: false, current_password: currentPassword });
  };
  return (
    <Section title="Two-Factor Authentication" testId="settings-two-factor">
      <Switch
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
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.currentTarget.value)}
              error={error}
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
