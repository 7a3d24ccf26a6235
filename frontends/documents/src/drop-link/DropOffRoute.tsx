import {
  Alert,
  Box,
  Button,
  Center,
  CloseButton,
  Container,
  Group,
  Image,
  isApiError,
  Loader,
  Paper,
  PUBLIC_QUERY,
  type RemoteRouteProps,
  ShellContext,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  useApi,
} from '@portico/kit';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, type RefObject, useContext, useId, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useDropzone } from 'react-dropzone';
import { Link, useSearchParams } from 'react-router';
import { type DocumentsApi, documentsApi } from '../api/documents-api.js';
import {
  DROP_OFF_MESSAGES,
  dropOffParams,
  EMAIL_PATTERN,
  noteProblem,
  SECURE_UPLOAD_PATH,
  uploaderNameProblem,
} from '../rules/drop-link.js';
import { formatSize } from '../rules/names.js';
import { HiddenFileInput } from '../upload/HiddenFileInput.js';
import { warnBeforeLeaving } from '../upload/leave-warning.js';
import { useTouchOnly } from '../upload/touch.js';
import { CANCEL_UPLOAD, UploadProgressList } from '../upload/UploadProgressList.js';
import { checkUpload, type FileProgress, type Toast, uploadToasts } from '../upload/upload.js';
import { dropOffFiles } from './drop-off-upload.js';

/**
 * /drop-link?id=… (spec 1 s.2.1, public): a visitor leaves files for a firm without signing in. The
 * drop link's answer brings the firm's name, logo and colour, and hides the Sign in button when the
 * firm has hide_sign_in_button_on_drop_link; `signin=false` in the query hides it as well.
 * /secure-upload is the same page for the portal's own firm (or ?firm=slug): its answer names the drop
 * link to upload through, and it is refused as the drop link is when the firm has turned it off.
 */
export default function DropOffRoute({
  basePath,
  makeXhr,
}: RemoteRouteProps & { makeXhr?: () => XMLHttpRequest }) {
  const [search] = useSearchParams();
  const bySlug = basePath === SECURE_UPLOAD_PATH;
  const portalFirm = useContext(ShellContext)?.firmSlug ?? '';
  const { id: linkId, firmSlug: slug, signIn: signInAsked } = dropOffParams(search, portalFirm);
  const key = bySlug ? slug : linkId;
  const kit = useApi();
  const api = useMemo(() => documentsApi(kit.client), [kit.client]);
  const info = useQuery({
    queryKey: ['documents', 'drop-off', bySlug ? 'firm' : 'link', key],
    queryFn: () => (bySlug ? api.secureUploadInfo(key) : api.dropLinkInfo(key)),
    enabled: Boolean(key),
    retry: false,
    staleTime: 5 * 60_000,
    // The same for anyone: kept when a session of this browser ends while a visitor fills the form.
    meta: PUBLIC_QUERY,
  });
  const id = bySlug ? (info.data?.drop_link_id ?? '') : linkId;
  const firmName = info.data?.firm_name ?? '';
  const branding = {
    firmName,
    logoUrl: info.data?.logo_url || undefined,
    primary: info.data?.primary || undefined,
  };
  const firmSlug = info.data?.firm_slug ?? '';
  // Shown once the drop link has answered, so a firm that hides it never has it flash.
  const signIn = !info.isPending && signInAsked && info.data?.hide_sign_in_button !== true;
  const signInHref = firmSlug ? `/signin?firm=${encodeURIComponent(firmSlug)}` : '/signin';

  let body: ReactNode;
  if (!key) {
    body = (
      <Alert color="red">{bySlug ? DROP_OFF_MESSAGES.missingFirm : DROP_OFF_MESSAGES.missingLink}</Alert>
    );
  } else if (info.isPending) {
    body = (
      <Center p="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  } else if (info.isError) {
    body = (
      <Alert color="red" data-testid="drop-link-refused">
        {isApiError(info.error) && info.error.status < 500 ? info.error.message : 'Something went wrong'}
      </Alert>
    );
  } else {
    body = (
      <DropOffForm
        api={api}
        dropLinkId={id}
        firmName={firmName}
        primary={branding.primary}
        makeXhr={makeXhr}
      />
    );
  }

  return (
    <Box mih="100vh" bg="var(--mantine-color-gray-0)" data-testid="drop-off-page">
      <Box
        component="header"
        bg="white"
        px="md"
        py="sm"
        style={{
          borderTop: `4px solid ${branding.primary ?? 'var(--mantine-primary-color-filled)'}`,
          borderBottom: '1px solid var(--mantine-color-gray-3)',
        }}
      >
        <Container size="sm" px={0}>
          <Group justify="space-between" wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              {branding.logoUrl ? (
                <Image src={branding.logoUrl} alt={branding.firmName} h={36} w="auto" fit="contain" />
              ) : null}
              <Text fw={700} size="lg" data-testid="drop-off-firm">
                {branding.firmName}
              </Text>
            </Group>
            {signIn ? (
              <Button component={Link} to={signInHref} variant="outline" color={branding.primary}>
                Sign in
              </Button>
            ) : null}
          </Group>
        </Container>
      </Box>
      <Container component="main" size="sm" py="xl">
        {body}
      </Container>
    </Box>
  );
}

/** A file's outcome that takes it off the chosen files: filed, or refused for good. */
const FILED_OR_REFUSED: ReadonlySet<FileProgress['state']> = new Set(['done', 'invalid', 'duplicate']);

/** A chosen file with a key of its own (the same name may be chosen twice). */
interface Picked {
  key: string;
  file: File;
}
let picks = 0;

interface Errors {
  name?: string;
  email?: string;
  note?: string;
  files?: string;
}

/** Who drops the files off, a message, the files (dropped or chosen), then one progress bar per file. */
export function DropOffForm({
  api,
  dropLinkId,
  firmName,
  primary,
  makeXhr,
}: {
  api: Pick<DocumentsApi, 'dropOffLinks' | 'processDropOff'>;
  dropLinkId: string;
  firmName: string;
  primary?: string;
  makeXhr?: () => XMLHttpRequest;
}) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [files, setFiles] = useState<Picked[]>([]);
  const [progress, setProgress] = useState<FileProgress[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [outcome, setOutcome] = useState<Toast[]>([]);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const running = useRef<AbortController>(undefined);
  const touchOnly = useTouchOnly();
  const nameInput = useRef<HTMLInputElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const noteInput = useRef<HTMLTextAreaElement>(null);
  const chooseFiles = useRef<HTMLButtonElement>(null);
  const filesErrorId = useId();

  const addFiles = (more: File[]) => {
    if (!more.length) return;
    setFiles((current) => [...current, ...more.map((file) => ({ key: `f${++picks}`, file }))]);
    setErrors((e) => ({ ...e, files: undefined }));
  };
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    noClick: true,
    noKeyboard: true,
    multiple: true,
    disabled: busy || sent,
    onDrop: addFiles,
  });

  const validate = (): Errors => {
    const found: Errors = {};
    found.name = uploaderNameProblem(name);
    if (!EMAIL_PATTERN.test(email.trim())) found.email = DROP_OFF_MESSAGES.emailInvalid;
    found.note = noteProblem(note);
    if (!files.length) found.files = DROP_OFF_MESSAGES.filesRequired;
    else found.files = checkUpload(files.map(({ file }) => ({ file, dir: '' })));
    return found;
  };

  const submit = async () => {
    const found = validate();
    // Rendered at once, so the field focused already has its error (aria-describedby) when it is read.
    flushSync(() => setErrors(found));
    // The first field in error, in the order of the page.
    const invalid = (
      [
        [found.name, nameInput],
        [found.email, emailInput],
        [found.note, noteInput],
        [found.files, chooseFiles],
      ] as const
    ).find(([error]) => error);
    if (invalid) {
      invalid[1].current?.focus();
      return;
    }
    setBusy(true);
    setOutcome([]);
    setProgress(
      files.map(({ key, file }) => ({
        key,
        name: file.name,
        progress: 0,
        size: file.size,
        state: 'waiting',
      })),
    );
    const states: FileProgress['state'][] = files.map(() => 'waiting');
    const controller = new AbortController();
    running.current = controller;
    const leaving = warnBeforeLeaving();
    try {
      const result = await dropOffFiles({
        api,
        dropLinkId,
        files: files.map((f) => f.file),
        uploader: { uploaderName: name.trim(), uploaderEmail: email.trim(), note: note.trim() },
        makeXhr,
        signal: controller.signal,
        onChange: (index, change) => {
          if (change.state) states[index] = change.state;
          setProgress((list) => list.map((p, i) => (i === index ? { ...p, ...change } : p)));
        },
      });
      setOutcome(uploadToasts(result));
      // The files filed or refused (invalid, already uploaded) are no longer chosen: Upload would send
      // them again. The rest (lost on the way, cancelled) stay chosen, listed again to remove or add to,
      // beside the last run's outcome. The form is done once something went and nothing is left.
      const settled = new Set(
        files.filter((_, i) => FILED_OR_REFUSED.has(states[i] ?? 'waiting')).map((f) => f.key),
      );
      const left = files.filter((f) => !settled.has(f.key));
      if (result.uploaded.length && !left.length) setSent(true);
      else setFiles((chosen) => chosen.filter((f) => !settled.has(f.key)));
      // Cancelled, the firm was sent nothing: the chosen files alone say it all.
      if (result.cancelled.length && !result.uploaded.length) setProgress([]);
    } finally {
      leaving();
      running.current = undefined;
      setBusy(false);
    }
  };

  const again = () => {
    setFiles([]);
    setProgress([]);
    setOutcome([]);
    setNote('');
    setSent(false);
  };

  return (
    <Paper withBorder radius="md" p="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={1} size="h2">
              Drop off documents
            </Title>
            <Text c="dimmed" size="sm">
              Send files securely to {firmName}. No account or sign-in needed.
            </Text>
          </Stack>
          {/* Side by side from the xs breakpoint; on a phone each takes the width an email address needs. */}
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label="Your name"
              required
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={errors.name}
              ref={nameInput}
              disabled={busy || sent}
              maxLength={200}
              autoComplete="name"
            />
            <TextInput
              label="Your email"
              type="email"
              required
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={errors.email}
              ref={emailInput}
              disabled={busy || sent}
              maxLength={254}
              autoComplete="email"
            />
          </SimpleGrid>
          <Textarea
            label="Message"
            description="Optional: tell the firm what these files are."
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            error={errors.note}
            ref={noteInput}
            disabled={busy || sent}
            maxLength={2_000}
            rows={3}
          />
          <div
            {...getRootProps()}
            data-testid="drop-off-dropzone"
            style={{
              border: `2px dashed ${errors.files ? 'var(--mantine-color-red-6)' : 'var(--mantine-color-gray-4)'}`,
              borderRadius: 8,
              padding: 24,
              textAlign: 'center',
              background: isDragActive ? 'var(--mantine-primary-color-light)' : undefined,
            }}
          >
            <HiddenFileInput inputProps={getInputProps()} label="Choose files" />
            <Text fw={500}>{touchOnly ? 'Choose the files to send' : 'Drag files here'}</Text>
            {/* Spec 1 s.9's text for every upload box; the 999-file limit is said when it is reached. */}
            <Text size="sm" c="dimmed">
              Max size 150 MB
            </Text>
            <Button
              ref={chooseFiles}
              variant="light"
              mt="sm"
              onClick={open}
              disabled={busy || sent}
              color={primary}
              aria-describedby={errors.files ? filesErrorId : undefined}
            >
              Choose files
            </Button>
          </div>
          {errors.files ? (
            <Text c="red.9" size="sm" id={filesErrorId}>
              {errors.files}
            </Text>
          ) : null}
          {/* While files are sent, only their progress; after, the files still chosen, then the last run's. */}
          {busy || sent ? null : (
            <FileList
              files={files}
              onRemove={(key) => setFiles((f) => f.filter((p) => p.key !== key))}
              focusWhenEmpty={chooseFiles}
            />
          )}
          <UploadProgressList files={progress} />
          {outcome.map((o) => (
            <Alert
              key={o.message}
              color={o.kind === 'success' ? 'green' : o.kind === 'info' ? 'blue' : 'red'}
              data-testid={`drop-off-${o.kind}`}
            >
              {o.message}
            </Alert>
          ))}
          <Group justify="flex-end">
            {sent ? (
              <Button variant="default" onClick={again}>
                Drop off more files
              </Button>
            ) : (
              <>
                {busy ? (
                  <Button variant="default" onClick={() => running.current?.abort()}>
                    {CANCEL_UPLOAD}
                  </Button>
                ) : null}
                <Button type="submit" loading={busy} color={primary}>
                  Upload
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * The chosen files, each with Remove. A Remove takes its focused button away, and the focus with it to the
 * page: it goes to the next file's Remove instead, else the previous one's, else `focusWhenEmpty`.
 */
function FileList({
  files,
  onRemove,
  focusWhenEmpty,
}: {
  files: Picked[];
  onRemove: (key: string) => void;
  focusWhenEmpty: RefObject<HTMLButtonElement | null>;
}) {
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  if (!files.length) return null;
  const remove = (key: string, index: number) => {
    const neighbour = files[index + 1] ?? files[index - 1];
    onRemove(key);
    const next = neighbour ? removeButtons.current.get(neighbour.key) : undefined;
    (next ?? focusWhenEmpty.current)?.focus();
  };
  return (
    <Stack gap={4} aria-label="Chosen files" role="list">
      {files.map(({ key, file }, index) => (
        <Group key={key} justify="space-between" wrap="nowrap" role="listitem">
          <Text size="sm" truncate>
            {file.name}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {formatSize(file.size)}
            </Text>
            <CloseButton
              ref={(el) => {
                if (el) removeButtons.current.set(key, el);
                return () => void removeButtons.current.delete(key);
              }}
              size="sm"
              aria-label={`Remove ${file.name}`}
              onClick={() => remove(key, index)}
            />
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
