import {
  Button,
  CURRENT_PASSWORD_MESSAGES,
  CURRENT_USER_KEY,
  CurrentPasswordInput,
  type CurrentUser,
  changesHowAccountIsReached,
  confirmsWithPassword,
  EmailConfirmationDialog,
  errorMessage,
  Group,
  isApiError,
  PhoneInput,
  type ProfileChanges,
  type ProfileUpdate,
  pendingEmailProps,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  toast,
  useApi,
  useCancelEmailChange,
  usePendingEmail,
} from '@portico/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Controller, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { useFocusFirstError } from '../forms/focus-first-error.js';
import {
  CONTACT_METHODS,
  changedProfileFields,
  PROFILE_MESSAGES,
  type ProfileValues,
  profileValuesOf,
  US_TIME_ZONES,
  validateProfile,
} from './profile-rules.js';

const FIELDS: (keyof ProfileValues)[] = [
  'email',
  'preferred_contact_method',
  'phone_number',
  'work_phone_number',
  'work_phone_extension',
  'time_zone',
  'enabled_2fa',
];

const resolver: Resolver<ProfileValues, ProfileValues> = async (values, loaded) => {
  const problems = validateProfile(values, loaded);
  const keys = Object.keys(problems) as (keyof ProfileValues)[];
  if (!keys.length) return { values, errors: {} };
  const errors: FieldErrors<ProfileValues> = {};
  for (const key of keys) errors[key] = { type: 'validate', message: problems[key] };
  return { values: {}, errors };
};

export interface ClientProfileFormProps {
  user: CurrentUser;
  /** Read-only account: every input disabled, the button too. */
  readOnly?: boolean;
  /** An advisor's preview: every input disabled and no button. */
  preview?: boolean;
}

/**
 * The client profile editor of spec 1 s.2.8: saves with PATCH /users/{id}; a changed email waits for the
 * emailed confirmation (identity keeps it as pending_email), which the dialog explains.
 */
export function ClientProfileForm({ user, readOnly = false, preview = false }: ClientProfileFormProps) {
  const api = useApi();
  const queryClient = useQueryClient();
  const [confirmationTo, setConfirmationTo] = useState<string | null>(null);
  // The fields as the form last loaded them (its starting values): what a save compares them with.
  const [loaded, setLoaded] = useState(() => profileValuesOf(user));
  const { control, register, handleSubmit, formState, reset, setError, setFocus, watch } = useForm<
    ProfileValues,
    ProfileValues
  >({
    defaultValues: profileValuesOf(user),
    resolver,
    // What the rules compare against: a phone left as loaded is not judged again.
    context: loaded,
    // Focus goes to the first field in error below, in the order the form shows the fields: the
    // library's own goes by the order they registered in, and before the messages show.
    shouldFocusError: false,
  });
  const forced = user.two_factor_forced;
  const disabled = readOnly || preview;
  const [currentPassword, setCurrentPassword] = useState('');
  const [currentPasswordError, setCurrentPasswordError] = useState<string | undefined>();
  // Identity asked for the password where the form judged it needless (the account changed elsewhere).
  const [passwordAskedBack, setPasswordAskedBack] = useState(false);
  const passwordInput = useRef<HTMLInputElement>(null);
  const { pending, answer: pendingAnswered } = usePendingEmail(user);
  const save = useMutation({
    mutationFn: (changes: ProfileChanges) => api.users.updateUser(user.id, changes),
    onSuccess: (result: ProfileUpdate) => {
      toast.success(PROFILE_MESSAGES.saved);
      setCurrentPassword('');
      setPasswordAskedBack(false);
      if (result.user) {
        pendingAnswered(result.user);
        queryClient.setQueryData(CURRENT_USER_KEY, result.user);
        setLoaded(profileValuesOf(result.user));
        reset(profileValuesOf(result.user));
      }
      if (result.email_confirmation_sent) setConfirmationTo(result.user?.pending_email || watch('email'));
    },
    onError: (err) => {
      toast.error(errorMessage(err));
      if (isApiError(err) && err.fields) {
        setCurrentPasswordError(err.fields.current_password);
        if (err.fields.current_password) {
          setPasswordAskedBack(true);
          void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
        }
        for (const [field, message] of Object.entries(err.fields)) {
          if ((FIELDS as string[]).includes(field))
            setError(field as keyof ProfileValues, { type: 'server', message });
        }
      }
    },
  });

  // Only the note changes: the fields keep what the user typed. The note and its button go, so focus
  // moves to the field the change was about.
  const cancelEmailChange = useCancelEmailChange(user.id, (answer) => {
    pendingAnswered(answer);
    setFocus('email');
  });

  const email = watch('email');
  const changesOf = (values: ProfileValues): ProfileChanges => {
    const { enabled_2fa, ...changes } = changedProfileFields(values, loaded);
    // Turning two-factor off is refused when the firm forces it; leave it out then.
    return forced || enabled_2fa === undefined ? changes : { ...changes, enabled_2fa };
  };
  // A new email or phone of the user's own, or two-factor off, is confirmed with the password.
  const asksPassword = (changes: ProfileChanges) =>
    passwordAskedBack || (confirmsWithPassword(user) && changesHowAccountIsReached(user, changes));
  const submit = (values: ProfileValues) => {
    const changes = changesOf(values);
    if (!Object.keys(changes).length) {
      toast.info(PROFILE_MESSAGES.noChanges);
      return;
    }
    const withPassword = asksPassword(changes);
    const missing = withPassword && !currentPassword;
    setCurrentPasswordError(missing ? CURRENT_PASSWORD_MESSAGES.missing : undefined);
    if (!missing) save.mutate(withPassword ? { ...changes, current_password: currentPassword } : changes);
  };
  useFocusFirstError(
    FIELDS,
    { submitCount: formState.submitCount, errors: formState.errors, setFocus },
    save.error,
    () => {
      if (currentPasswordError) passwordInput.current?.focus();
    },
  );
  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label="Profile">
      <Stack gap="md" maw={720}>
        <TextInput
          label="Primary Contact Email"
          type="email"
          autoComplete="email"
          disabled={disabled}
          error={formState.errors.email?.message}
          {...pendingEmailProps({
            pending,
            onWithdraw: disabled ? undefined : () => cancelEmailChange.mutate(),
            withdrawing: cancelEmailChange.isPending || save.isPending,
          })}
          {...register('email')}
        />
        <Controller
          control={control}
          name="preferred_contact_method"
          render={({ field, fieldState }) => (
            <Select
              label="Contact Method"
              data={CONTACT_METHODS.map((m) => ({ value: m.value, label: m.label }))}
              allowDeselect={false}
              disabled={disabled}
              ref={field.ref}
              value={field.value}
              onChange={(v) => field.onChange(v ?? 'email')}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Controller
            control={control}
            name="phone_number"
            render={({ field, fieldState }) => (
              <PhoneInput
                label="Phone Number"
                disabled={disabled}
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
          <Controller
            control={control}
            name="work_phone_number"
            render={({ field, fieldState }) => (
              <PhoneInput
                label="Work Phone Number"
                autoComplete="off"
                disabled={disabled}
                ref={field.ref}
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
          <TextInput
            label="Work Phone Extension"
            inputMode="numeric"
            maxLength={6}
            disabled={disabled}
            error={formState.errors.work_phone_extension?.message}
            {...register('work_phone_extension')}
          />
        </SimpleGrid>
        <Controller
          control={control}
          name="time_zone"
          render={({ field, fieldState }) => (
            <Select
              label="Time Zone"
              data={[...US_TIME_ZONES]}
              allowDeselect={false}
              disabled={disabled}
              ref={field.ref}
              value={field.value}
              onChange={(v) => v && field.onChange(v)}
              onBlur={field.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="enabled_2fa"
          render={({ field, fieldState }) => (
            <Switch
              ref={field.ref}
              label="Two-Factor Authentication"
              description={forced ? PROFILE_MESSAGES.twoFactorForced : undefined}
              checked={forced || field.value}
              disabled={disabled || forced}
              onChange={(e) => field.onChange(e.currentTarget.checked)}
              error={fieldState.error?.message}
            />
          )}
        />
        {!disabled && asksPassword(changesOf(watch())) && (
          <CurrentPasswordInput
            ref={passwordInput}
            value={currentPassword}
            onChange={(e) => setCurrentPassword(e.currentTarget.value)}
            error={currentPasswordError}
            // The library's password field ties its message (aria-describedby) but does not mark it invalid.
            aria-invalid={!!currentPasswordError || undefined}
          />
        )}
        {!preview && (
          <Group>
            <Button type="submit" loading={save.isPending} disabled={readOnly || !email.trim()}>
              Update Profile
            </Button>
          </Group>
        )}
      </Stack>
      <EmailConfirmationDialog
        to={confirmationTo}
        currentEmail={user.email}
        onClose={() => setConfirmationTo(null)}
      />
    </form>
  );
}
