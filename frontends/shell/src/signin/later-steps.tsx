import '@portico/kit/styles.css';
import {
  Anchor,
  Button,
  EmailConfirmationDialog,
  KitThemeProvider,
  PASSWORD_HINT,
  PasswordInput,
  PhoneInput,
  passwordProblem,
  Radio,
  requiredPhoneProblem,
  Stack,
  Text,
  useShell,
} from '@portico/kit';
import { useSignInTheme } from '@portico/kit/signin';
import { type ComponentType, useState } from 'react';
import { MESSAGES } from './messages.js';
import { useFields } from './useFields.js';

// The sign-in steps that come after the first one, loaded on demand (see SignInPage). They take their
// components from the whole kit, which the signed-in shell loads anyway, and each brings Mantine's
// provider (the kit's) with it: the page around them is made of lean components, without one.

function withKitTheme<P extends object>(Step: ComponentType<P>) {
  return function Themed(props: P) {
    const theme = useSignInTheme();
    // Inside the signed-in shell (`RoutedSignInPage`), its own provider stands.
    if (!theme) return <Step {...props} />;
    return (
      <KitThemeProvider primary={theme.primary} env={theme.env}>
        <Step {...props} />
      </KitThemeProvider>
    );
  };
}

export const PasswordField = withKitTheme(PasswordInput);
export const ConfirmationDialog = withKitTheme(EmailConfirmationDialog);

function PasswordFormStep(props: {
  busy: boolean;
  onSubmit: (password: string, confirmation: string) => void;
}) {
  const { field, handleSubmit } = useFields(
    { password: '', confirmation: '' },
    {
      // The identity service's rules, checked before it is called.
      password: (v) => passwordProblem(v) ?? true,
      confirmation: (v, all) => (v === all.password ? true : MESSAGES.passwordsDiffer),
    },
  );
  return (
    <form
      onSubmit={handleSubmit(({ password, confirmation }) => props.onSubmit(password, confirmation))}
      noValidate
    >
      <Stack gap="sm">
        <PasswordInput
          label="New password"
          description={PASSWORD_HINT}
          autoComplete="new-password"
          {...field('password')}
        />
        <PasswordInput label="Confirm password" autoComplete="new-password" {...field('confirmation')} />
        <Button type="submit" loading={props.busy} fullWidth>
          Set password
        </Button>
      </Stack>
    </form>
  );
}

function PhoneFormStep(props: { busy: boolean; onSubmit: (digits: string) => void; onBack: () => void }) {
  const [phone, setPhone] = useState('');
  const [problem, setProblem] = useState<string>();
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const found = requiredPhoneProblem(phone);
        if (found) setProblem(found);
        else props.onSubmit(phone);
      }}
      noValidate
    >
      <Stack gap="sm">
        <Text>We will text a sign-in code to this number.</Text>
        <PhoneInput
          label="Phone Number"
          value={phone}
          onChange={(digits) => {
            setProblem(undefined);
            setPhone(digits);
          }}
          error={problem}
        />
        <Button type="submit" loading={props.busy} fullWidth>
          Save
        </Button>
        <Anchor component="button" type="button" size="sm" disabled={props.busy} onClick={props.onBack}>
          Back
        </Anchor>
      </Stack>
    </form>
  );
}

function MethodChooserStep(props: {
  busy: boolean;
  onChoose: (method: 'password' | 'sms' | 'email') => void;
}) {
  const [method, setMethod] = useState<'password' | 'sms' | 'email'>('password');
  return (
    <Stack gap="sm">
      <Radio.Group value={method} onChange={(v) => setMethod(v as typeof method)} name="sign-in-method">
        <Stack gap="xs">
          <Radio value="password" label="Password" />
          <Radio value="sms" label="SMS passcode" />
          <Radio value="email" label="Email passcode" />
        </Stack>
      </Radio.Group>
      <Button loading={props.busy} onClick={() => props.onChoose(method)}>
        Continue
      </Button>
    </Stack>
  );
}

/**
 * The shell's Sign out, for the steps of a signed-in user who must choose a method. Never held back by a
 * request on its way: `onSignOut` drops that request's answer, which would otherwise sign in again.
 */
function SignOutLinkStep({ onSignOut }: { onSignOut: () => void }) {
  const { signOut } = useShell();
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={() => {
        onSignOut();
        void signOut();
      }}
    >
      Sign out
    </Anchor>
  );
}

export const PasswordForm = withKitTheme(PasswordFormStep);
export const PhoneForm = withKitTheme(PhoneFormStep);
export const MethodChooser = withKitTheme(MethodChooserStep);
export const SignOutLink = withKitTheme(SignOutLinkStep);
