import {
  EmailConfirmationDialog,
  Loader,
  type RemoteRouteProps,
  Stack,
  Title,
  useCurrentUser,
  useEmailConfirmationLink,
} from '@portico/kit';
import { useState } from 'react';
import {
  ContactSection,
  NameSection,
  OutOfOfficeSection,
  SignInMethodSection,
  TwoFactorSection,
} from './sections.js';

/**
 * /admin-profile: advisor Profile Settings (name, contact, out of office, sign-in method, two-factor), and
 * where the confirmation link of an advisor's changed email lands.
 */
export default function ProfileSettingsRoute(_props: RemoteRouteProps) {
  useEmailConfirmationLink();
  const user = useCurrentUser();
  // Held here, not in Contact: the save that sends the link also puts the new phone in the saved user,
  // which starts Contact again, and the dialog must stay until the user closes it.
  const [confirmationTo, setConfirmationTo] = useState<string | null>(null);
  if (!user.data) return <Loader aria-label="Loading" />;
  const me = user.data;
  return (
    <Stack gap="lg" maw={880} data-testid="profile-settings">
      <Title order={1} size="h2">
        Profile Settings
      </Title>
      <NameSection user={me} />
      {/* Each section keeps its own copy of the fields it edits: one saved elsewhere on the page (the
          sign-in method's phone is the contact phone) starts it again from the saved values, or its next
          save would send back what the other replaced. */}
      <ContactSection
        key={`${me.email} ${me.phone_number}`}
        user={me}
        onConfirmationSent={setConfirmationTo}
      />
      <OutOfOfficeSection user={me} />
      <SignInMethodSection key={`${me.preferred_sign_in_method} ${me.phone_number}`} user={me} />
      <TwoFactorSection user={me} />
      <EmailConfirmationDialog to={confirmationTo} onClose={() => setConfirmationTo(null)} />
    </Stack>
  );
}
