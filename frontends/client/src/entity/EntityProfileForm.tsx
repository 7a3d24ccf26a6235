import {
  Button,
  EMAIL_MESSAGES,
  type Entity,
  errorMessage,
  Group,
  isApiError,
  isValidEmail,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
  Title,
  toast,
  useApi,
} from '@portico/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { useFocusFirstError } from '../forms/focus-first-error.js';
import { addressLabels, countryOptions, DEFAULT_COUNTRY, isKnownCountry } from './countries.js';

export const ENTITY_MESSAGES = {
  saved: 'Entity info updated successfully.',
  failed: 'error updating entity',
  invalidEmail: EMAIL_MESSAGES.invalid,
  invalidCountry: 'Choose a country from the list',
} as const;

/** The shell's list of the client's entities (selector, banners), refreshed after a save. */
const CLIENT_ENTITIES_KEY = ['client_entities'];

export interface EntityValues {
  business_email: string;
  other_email: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  country: string;
}

type EntityErrors = Partial<Record<keyof EntityValues, string>>;

/** The entity profile's rules: optional emails of the right shape, a country from the list. */
export function validateEntity(values: EntityValues): EntityErrors {
  const errors: EntityErrors = {};
  for (const key of ['business_email', 'other_email'] as const) {
    const value = values[key].trim();
    if (value && !isValidEmail(value)) errors[key] = ENTITY_MESSAGES.invalidEmail;
  }
  if (!isKnownCountry(values.country)) errors.country = ENTITY_MESSAGES.invalidCountry;
  return errors;
}

const resolver: Resolver<EntityValues> = async (values) => {
  const problems = validateEntity(values);
  const keys = Object.keys(problems) as (keyof EntityValues)[];
  if (!keys.length) return { values, errors: {} };
  const errors: FieldErrors<EntityValues> = {};
  for (const key of keys) errors[key] = { type: 'validate', message: problems[key] };
  return { values: {}, errors };
};

const valuesOf = (entity: Entity): EntityValues => ({
  business_email: entity.business_email,
  other_email: entity.other_email,
  street: entity.street,
  city: entity.city,
  state: entity.state,
  zip: entity.zip,
  country: entity.country || DEFAULT_COUNTRY,
});

const FIELDS = Object.keys(valuesOf({} as Entity)) as (keyof EntityValues)[];

/**
 * The entity as stored, what a save compares with: an entity with no country shows the default one,
 * which a save writes (it did when every field was sent), so the stored record says what the form showed.
 */
const storedValuesOf = (entity: Entity): EntityValues => ({
  ...valuesOf(entity),
  country: entity.country ?? '',
});

/**
 * The fields of `values` the user changed from the form's starting values (`loaded`). A save sends only
 * these: identity reads an absent field as unchanged, so an address changed by someone else since the
 * form was loaded is not written back.
 */
export function changedEntityFields(values: EntityValues, loaded: EntityValues): Partial<EntityValues> {
  const sent = (key: keyof EntityValues) => (key === 'country' ? values.country : values[key].trim());
  return Object.fromEntries(FIELDS.filter((key) => sent(key) !== loaded[key]).map((key) => [key, sent(key)]));
}

/**
 * The entity profile editor of spec 1 s.2.8 for the client's selected entity: the address fields only,
 * saved with PUT /companies/{id}. Read-only users and read-only entities see every input disabled.
 */
export function EntityProfileForm({
  entity,
  readOnly = false,
  preview = false,
}: {
  entity: Entity;
  readOnly?: boolean;
  preview?: boolean;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { control, register, handleSubmit, formState, reset, setError, setFocus, watch } =
    useForm<EntityValues>({
      defaultValues: valuesOf(entity),
      resolver,
      // Focus goes to the first field in error below, once the messages show.
      shouldFocusError: false,
    });
  // The fields as the form last loaded them (its starting values): what a save compares them with.
  const [loaded, setLoaded] = useState(() => storedValuesOf(entity));
  const disabled = readOnly || preview;
  const labels = addressLabels(watch('country'));

  const save = useMutation({
    mutationFn: (values: EntityValues) =>
      api.companies.updateProfile(entity.id, changedEntityFields(values, loaded)),
    onSuccess: (updated) => {
      toast.success(ENTITY_MESSAGES.saved);
      setLoaded(storedValuesOf(updated));
      reset(valuesOf(updated));
      void queryClient.invalidateQueries({ queryKey: CLIENT_ENTITIES_KEY });
    },
    onError: (err) => {
      toast.error(errorMessage(err, ENTITY_MESSAGES.failed));
      if (isApiError(err) && err.fields) {
        for (const [field, message] of Object.entries(err.fields)) {
          if ((FIELDS as string[]).includes(field))
            setError(field as keyof EntityValues, { type: 'server', message });
        }
      }
    },
  });

  useFocusFirstError(
    FIELDS,
    { submitCount: formState.submitCount, errors: formState.errors, setFocus },
    save.error,
  );

  return (
    <form onSubmit={handleSubmit((values) => save.mutate(values))} noValidate aria-label="Entity information">
      <Stack gap="md" maw={720}>
        <Title order={2} size="h3">
          {entity.name}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Entity email"
            type="email"
            disabled={disabled}
            error={formState.errors.business_email?.message}
            {...register('business_email')}
          />
          <TextInput
            label="Other email"
            type="email"
            disabled={disabled}
            error={formState.errors.other_email?.message}
            {...register('other_email')}
          />
        </SimpleGrid>
        <TextInput
          label="Street Address"
          autoComplete="street-address"
          disabled={disabled}
          error={formState.errors.street?.message}
          {...register('street')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="City"
            disabled={disabled}
            error={formState.errors.city?.message}
            {...register('city')}
          />
          <TextInput
            label={labels.state}
            disabled={disabled}
            error={formState.errors.state?.message}
            {...register('state')}
          />
          <TextInput
            label={labels.zip}
            disabled={disabled}
            error={formState.errors.zip?.message}
            {...register('zip')}
          />
          <Controller
            control={control}
            name="country"
            render={({ field, fieldState }) => (
              <Select
                label="Country"
                data={countryOptions()}
                searchable
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
        </SimpleGrid>
        {!preview && (
          <Group>
            <Button type="submit" loading={save.isPending} disabled={readOnly}>
              Save Information
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
