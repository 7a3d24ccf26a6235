import {
  Alert,
  Button,
  Center,
  Checkbox,
  Group,
  isApiError,
  Loader,
  ShellContext,
  Stack,
  Text,
  TextInput,
  toast,
} from '@portico/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useContext, useEffect, useState } from 'react';
import type { DocumentsApi } from '../api/documents-api.js';
import { GuardedButton } from '../documents/Guarded.js';
import { choiceChanged, DROP_LINK_MESSAGES, dropLinkUrl, secureUploadUrl } from '../rules/drop-link.js';

export const dropLinkKey = ['documents', 'drop-link'] as const;

export interface DropLinkPanelProps {
  api: DocumentsApi;
  /** In the dialog: a Close button beside Save. */
  onClose?: () => void;
  /** Shown below the settings when the firm has the drop link on (the settings page's received files). */
  children?: ReactNode;
}

/**
 * The firm drop link's settings (partners, admins and full users, when the firm has it on): the link to
 * copy, and the firm users who receive drop-off notifications, at least one (the service refuses none as
 * well). The body of the Drop Link dialog and of the /drop-link-settings page.
 */
export function DropLinkPanel({ api, onClose, children }: DropLinkPanelProps) {
  const queryClient = useQueryClient();
  const link = useQuery({ queryKey: dropLinkKey, queryFn: () => api.dropLink(), staleTime: 0 });
  const [chosen, setChosen] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const saved = link.data?.notify_user_ids ?? [];
  useEffect(() => {
    if (link.data) setChosen((c) => c ?? link.data.notify_user_ids);
  }, [link.data]);

  const selected = chosen ?? saved;
  const dirty = choiceChanged(saved, selected);
  const none = selected.length === 0;
  // Copy hands the link out: not while the choice on screen is unsaved, nor while nobody saved is notified
  // of what is dropped off (a new firm starts with nobody).
  const copyRefusal = dirty
    ? DROP_LINK_MESSAGES.unsaved
    : saved.length === 0
      ? DROP_LINK_MESSAGES.selectUser
      : undefined;
  const url = link.data ? dropLinkUrl(window.location.origin, link.data.id) : '';
  const portalFirm = useContext(ShellContext)?.firmSlug;
  const pageUrl = link.data?.firm_slug
    ? secureUploadUrl(window.location.origin, link.data.firm_slug, portalFirm)
    : '';

  const toggle = (id: string) =>
    setChosen(selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id]);

  const save = async () => {
    setBusy(true);
    try {
      const next = await api.saveDropLink(selected);
      queryClient.setQueryData(dropLinkKey, next);
      setChosen(next.notify_user_ids);
      toast.success(DROP_LINK_MESSAGES.saved);
    } catch (err) {
      toast.error(isApiError(err) && err.status < 500 ? err.message : DROP_LINK_MESSAGES.saveFailed);
    } finally {
      setBusy(false);
    }
  };

  const copy = async (text: string, copied: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(copied);
    } catch {
      toast.error();
    }
  };

  // Documents refuses the drop link's calls while the firm has it switched off (403 drop_link_disabled).
  const switchedOff =
    (link.isError && isApiError(link.error) && link.error.code === 'drop_link_disabled') ||
    link.data?.enabled === false;
  let body: ReactNode;
  if (link.isPending) {
    body = (
      <Center p="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  } else if (switchedOff) {
    body = <Text>{DROP_LINK_MESSAGES.off}</Text>;
  } else if (link.isError) {
    body = (
      <Text c="red.9">
        {isApiError(link.error) && link.error.status < 500 ? link.error.message : 'Something went wrong'}
      </Text>
    );
  } else {
    body = (
      <Stack gap="md">
        <Text size="sm">
          Anyone with this link can drop files off for {link.data.firm_name}, without signing in.
        </Text>
        <CopyableAddress
          label="Drop link"
          value={url}
          testId="drop-link-url"
          refusal={copyRefusal}
          onCopy={() => void copy(url, DROP_LINK_MESSAGES.copied)}
        />
        {pageUrl ? (
          <CopyableAddress
            label="Secure upload page"
            description="The same drop-off at a fixed address of this portal, to print or put in an email signature."
            value={pageUrl}
            testId="secure-upload-url"
            copyLabel="Copy the secure upload page"
            refusal={copyRefusal}
            onCopy={() => void copy(pageUrl, DROP_LINK_MESSAGES.pageCopied)}
          />
        ) : null}
        <Stack gap={6} role="group" aria-label="Notify these firm users">
          <Text size="sm" fw={600}>
            Notify these firm users of drop-offs
          </Text>
          {link.data.firm_users.map((u) => (
            <Checkbox
              key={u.id}
              label={u.full_name || u.email}
              description={u.full_name ? u.email : undefined}
              checked={selected.includes(u.id)}
              onChange={() => toggle(u.id)}
            />
          ))}
        </Stack>
        {none ? (
          <Alert color="yellow" variant="light" role="alert">
            {DROP_LINK_MESSAGES.selectUser}
          </Alert>
        ) : null}
      </Stack>
    );
  }

  const enabled = link.data?.enabled === true;
  return (
    <>
      {body}
      {onClose || enabled ? (
        <Group justify="flex-end" mt="md">
          {onClose ? (
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          ) : null}
          {enabled ? (
            <Button onClick={() => void save()} loading={busy} disabled={none || !dirty}>
              Save
            </Button>
          ) : null}
        </Group>
      ) : null}
      {enabled ? children : null}
    </>
  );
}

/**
 * An address to copy; Copy waits until the choice of users is saved and names at least one user (spec 1
 * s.5.4), refused with the reason read with it and still in the keyboard's reach.
 */
function CopyableAddress(props: {
  label: string;
  description?: string;
  value: string;
  testId: string;
  /** The button's accessible name when the panel has more than one Copy. */
  copyLabel?: string;
  /** Why Copy is refused, if it is. */
  refusal: string | undefined;
  onCopy: () => void;
}) {
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={props.label}
        description={props.description}
        value={props.value}
        readOnly
        style={{ flex: 1 }}
        data-testid={props.testId}
      />
      <GuardedButton
        verdict={{ visible: true, enabled: !props.refusal, reason: props.refusal }}
        variant="light"
        onClick={props.onCopy}
        aria-label={props.copyLabel}
      >
        Copy
      </GuardedButton>
    </Group>
  );
}
