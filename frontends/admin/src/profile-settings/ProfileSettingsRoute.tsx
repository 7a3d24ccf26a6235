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
  // The page's, not Contact's: the dialog stays open until the user closes it, whatever the save changed.
  const [confirmationTo, setConfirmationTo] = useState<string | null>(null);
  if (!user.data) return <Loader aria-label="Loading" />;
  const me = user.data;
  return (
    <Stack gap="lg" maw={880} data-testid="profile-settings">
      <Title order={1} size="h2">
        Profile Settings
      </Title>
      <NameSection user={me} />
      {/* Each section keeps its own copy of the fields it edits and takes a value saved elsewhere on the
          page (the sign-in method's phone is the contact phone) in place: not remounted, which would
          drop the focus and the dialog's way back to the button that opened it. */}
      <ContactSection user={me} onConfirmationSent={setConfirmationTo} />
      <OutOfOfficeSection user={me} />
      <SignInMethodSection user={me} />
      <TwoFactorSection user={me} />
      <EmailConfirmationDialog to={confirmationTo} onClose={() => setConfirmationTo(null)} />
    </Stack>
  );
}
