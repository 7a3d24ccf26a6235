import { Anchor, Text } from '@mantine/core';

/**
 * An email field's note while a change waits for confirmation: the address waiting, and a way to
 * withdraw it (a mistyped address, say). Withdrawing saves the address the account has; identity then
 * clears the change and its link stops working.
 */
export function PendingEmailNote({
  pending,
  onWithdraw,
  disabled = false,
}: {
  pending: string;
  /** Omitted where the viewer may not change the email (a preview, a read-only account). */
  onWithdraw?: () => void;
  disabled?: boolean;
}) {
  return (
    <Text component="span" size="xs" c="dimmed">
      <span>{`Waiting for confirmation of ${pending}`}</span>
      {onWithdraw && (
        <>
          {' · '}
          <Anchor component="button" type="button" size="xs" disabled={disabled} onClick={onWithdraw}>
            Cancel email change
          </Anchor>
        </>
      )}
    </Text>
  );
}
