import { Alert, Button, CloseButton, Group, Overlay, Paper, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { fingerprint, readCookie, writeCookie } from '../utils/cookies.js';

export const READ_ONLY_ACCOUNT_TEXT =
  'This account is read-only. If you need to upload documents or answer questionnaires, please send us an email.';
export const READ_ONLY_ENTITY_TEXT =
  'This entity is read-only. If you need to upload documents or answer questionnaires, please send us an email.';
export const INACTIVE_ENTITIES_TEXT =
  'Your account does not have active entities to view. Please contact your firm.';

/** Spec 1 s.6: the info banner of a read-only user ('account') or a read-only entity ('entity'). */
export function ReadOnlyBanner({ variant = 'account' }: { variant?: 'account' | 'entity' }) {
  return (
    <Alert color="blue" variant="light" role="status" data-testid={`read-only-${variant}`}>
      {variant === 'account' ? READ_ONLY_ACCOUNT_TEXT : READ_ONLY_ENTITY_TEXT}
    </Alert>
  );
}

/** Spec 1 s.2.10: a client whose entities are all inactive sees only this, with Sign out. */
export function InactiveEntitiesOverlay({ onSignOut }: { onSignOut: () => void }) {
  return (
    <Overlay
      fixed
      backgroundOpacity={0.55}
      blur={2}
      center
      zIndex={250}
      data-testid="inactive-entities-overlay"
    >
      <Paper
        p="xl"
        radius="md"
        shadow="md"
        maw={460}
        role="dialog"
        aria-modal="true"
        aria-label="No active entities"
      >
        <Stack align="center">
          <Text ta="center">{INACTIVE_ENTITIES_TEXT}</Text>
          {/* The only thing to do here: focus starts on it. */}
          <Button onClick={onSignOut} autoFocus>
            Sign out
          </Button>
        </Stack>
      </Paper>
    </Overlay>
  );
}

export const IN_APP_BANNER_COOKIE = 'portico_in_app_banner_dismissed';

/**
 * The firm's in-app banner (preferences in_app_banner_enabled / in_app_banner_text). Dismissal is kept
 * in a cookie per text, so a new text from the firm shows again, also while the page is open.
 */
export function InAppBanner({ enabled, text }: { enabled: boolean; text: string }) {
  const id = fingerprint(text);
  // The text dismissed, not a flag: a flag would stay set when the firm's text changes under it.
  const [dismissedId, setDismissedId] = useState(() => readCookie(IN_APP_BANNER_COOKIE));
  if (!enabled || !text.trim() || dismissedId === id) return null;
  return (
    <Alert color="firm" variant="filled" radius={0} py={6} data-testid="in-app-banner">
      <Group justify="space-between" wrap="nowrap">
        <Text size="sm">{text}</Text>
        <CloseButton
          aria-label="Dismiss banner"
          variant="transparent"
          c="white"
          onClick={() => {
            writeCookie(IN_APP_BANNER_COOKIE, id);
            setDismissedId(id);
          }}
        />
      </Group>
    </Alert>
  );
}

/** A global notice pinned to the top of the window (signed-out notice, maintenance alert). */
export function GlobalNotice({
  text,
  color = 'yellow',
  testId,
}: {
  text: string;
  color?: string;
  testId?: string;
}) {
  return (
    <Alert
      color={color}
      variant="filled"
      role="alert"
      data-testid={testId}
      style={{
        position: 'fixed',
        top: 12,
        left: '50%',
        transform: 'translateX(-50%)',
        zIndex: 1000,
        maxWidth: 640,
      }}
    >
      {text}
    </Alert>
  );
}
