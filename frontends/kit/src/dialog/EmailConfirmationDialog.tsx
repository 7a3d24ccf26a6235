import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Dialog } from './Dialog.js';

/**
 * After a profile save that changes the email (spec 1 s.2.8): the new address must be confirmed from
 * the link sent to it. `currentEmail`, when given, says which address keeps signing in until then.
 */
export function EmailConfirmationDialog({
  to,
  currentEmail,
  onClose,
}: {
  /** The new, unconfirmed address; the dialog is open while it is set. */
  to: string | null;
  currentEmail?: string;
  onClose: () => void;
}) {
  // The address stays in the text while the dialog fades out after `to` is cleared (it read 'sent a
  // confirmation link to .' for the length of the close animation).
  const [shownTo, setShownTo] = useState(to);
  if (to !== null && to !== shownTo) setShownTo(to);
  return (
    <Dialog
      opened={to !== null}
      onClose={onClose}
      title="Confirm your new email"
      aria-label="Confirm your new email"
    >
      <Stack>
        <Text>
          We sent a confirmation link to {shownTo}. Your new email must be confirmed before it is used, and
          your login method will be updated to the new email once you open the link.
        </Text>
        {currentEmail ? (
          <Text size="sm" c="dimmed">
            Until then, keep signing in with {currentEmail}.
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={onClose}>OK</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
