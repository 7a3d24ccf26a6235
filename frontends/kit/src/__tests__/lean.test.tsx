import { describe, expect, it } from '@jest/globals';
import * as Mantine from '@mantine/core';
import { render } from '@testing-library/react';
import { createRef, type ReactElement } from 'react';
import * as Lean from '../lean/index.js';
import { createPorticoTheme } from '../theme/theme.js';

// The lean components are Mantine's markup without Mantine's code: each case renders the same props
// through both and compares the elements (tags, attributes, inline styles as declarations, text). A
// Mantine upgrade that changes its markup fails here, before the sign-in page looks different.

const theme = createPorticoTheme(undefined);

function tree(markup: string) {
  const body = new DOMParser().parseFromString(`<body>${markup}</body>`, 'text/html').body;
  const ids = new Map<string, string>();
  const id = (value: string) =>
    value.replace(/mantine-[^\s-]+/g, (found) => {
      if (!ids.has(found)) ids.set(found, `id${ids.size}`);
      return ids.get(found) as string;
    });
  const describe = (node: Node): unknown => {
    if (node.nodeType === Node.TEXT_NODE) return node.textContent;
    const element = node as Element;
    const attributes = Object.fromEntries(
      [...element.attributes].map((a) => {
        if (a.name === 'style')
          return [
            'style',
            a.value
              .split(';')
              .map((d) => d.trim())
              .filter(Boolean)
              .sort(),
          ];
        if (a.name === 'class') return ['class', a.value.split(/\s+/).sort()];
        return [a.name, id(a.value)];
      }),
    );
    return { tag: element.tagName, attributes, children: [...element.childNodes].map(describe) };
  };
  return [...body.childNodes].map(describe);
}

function markup(element: ReactElement) {
  const { container, unmount } = render(element);
  const html = container.innerHTML;
  unmount();
  return tree(html);
}
const mantine = (element: ReactElement) =>
  markup(
    <Mantine.MantineProvider theme={theme} withCssVariables={false} withGlobalClasses={false}>
      {element}
    </Mantine.MantineProvider>,
  );
const lean = markup;

const noop = () => {};
type Components = typeof Lean;
// Each case once, drawn with either set of components.
const cases: [string, (ui: Components) => ReactElement][] = [
  [
    'Center as the page',
    (ui) => (
      <ui.Center component="main" mih="100vh" p="md" bg="var(--mantine-color-gray-0)">
        c
      </ui.Center>
    ),
  ],
  ['Center', (ui) => <ui.Center py="sm">c</ui.Center>],
  [
    'Paper, the card',
    (ui) => (
      <ui.Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440} data-state="login">
        p
      </ui.Paper>
    ),
  ],
  [
    'Paper, the fallback',
    (ui) => (
      <ui.Paper p="xl" withBorder role="alert" maw={560} mx="auto" my="xl">
        p
      </ui.Paper>
    ),
  ],
  ['Stack', (ui) => <ui.Stack gap="sm">s</ui.Stack>],
  [
    'Stack, centred, in pixels',
    (ui) => (
      <ui.Stack align="center" gap={4}>
        s
      </ui.Stack>
    ),
  ],
  ['Group', (ui) => <ui.Group justify="space-between">g</ui.Group>],
  ['Text', (ui) => <ui.Text>t</ui.Text>],
  [
    'Text, bold and dimmed',
    (ui) => (
      <ui.Text fw={600} c="dimmed">
        t
      </ui.Text>
    ),
  ],
  [
    'Text, small',
    (ui) => (
      <ui.Text size="xs" c="dimmed" ta="center">
        t
      </ui.Text>
    ),
  ],
  [
    'Title',
    (ui) => (
      <ui.Title tabIndex={-1} order={1} size="h2" ta="center">
        t
      </ui.Title>
    ),
  ],
  ['Image', (ui) => <ui.Image src="/logo.png" alt="Firm" mah={64} w="auto" fit="contain" />],
  [
    'Alert, a notice',
    (ui) => (
      <ui.Alert color="teal" role="none" mt="md">
        notice
      </ui.Alert>
    ),
  ],
  [
    'Alert, an error',
    (ui) => (
      <ui.Alert color="red" role="alert" data-testid="e">
        error
      </ui.Alert>
    ),
  ],
  ['Button', (ui) => <ui.Button>Refresh</ui.Button>],
  [
    'Button, submitting, full width',
    (ui) => (
      <ui.Button type="submit" loading fullWidth>
        Continue
      </ui.Button>
    ),
  ],
  [
    'Button, disabled',
    (ui) => (
      <ui.Button type="submit" disabled fullWidth>
        Verify
      </ui.Button>
    ),
  ],
  [
    'Button, disabled and submitting (the code form)',
    (ui) => (
      <ui.Button type="submit" disabled loading fullWidth>
        Verify Code
      </ui.Button>
    ),
  ],
  [
    'Button, light',
    (ui) => (
      <ui.Button variant="light" onClick={noop}>
        Text me a code
      </ui.Button>
    ),
  ],
  [
    'Button, subtle and loading',
    (ui) => (
      <ui.Button variant="subtle" loading>
        Reset
      </ui.Button>
    ),
  ],
  [
    'Anchor as a button',
    (ui) => (
      <ui.Anchor component="button" type="button" size="sm" disabled>
        Back
      </ui.Anchor>
    ),
  ],
  [
    'Anchor as a button, text size',
    (ui) => (
      <ui.Anchor component="button" type="button">
        Back
      </ui.Anchor>
    ),
  ],
  ['Loader', (ui) => <ui.Loader size="sm" aria-label="Loading" />],
  [
    'TextInput',
    (ui) => (
      <ui.TextInput
        label="Email"
        type="email"
        autoComplete="username"
        name="email"
        value=""
        onChange={noop}
      />
    ),
  ],
  [
    'TextInput, read-only',
    (ui) => <ui.TextInput label="Email" type="email" readOnly value="a@b.c" onChange={noop} />,
  ],
  [
    'TextInput with an error',
    (ui) => (
      <ui.TextInput label="Email" type="email" value="" error="Please enter your email" onChange={noop} />
    ),
  ],
  [
    'TextInput for a code',
    (ui) => (
      <ui.TextInput
        label="Verification code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        value="12"
        onChange={noop}
        autoFocus
      />
    ),
  ],
];

describe("lean components: Mantine's markup", () => {
  it.each(cases)('%s', (_name, draw) => {
    expect(lean(draw(Lean))).toEqual(mantine(draw(Mantine as unknown as Components)));
  });

  // What the markup does not show: React focuses an autoFocus field, and a ref reaches the element.
  it('focuses an autoFocus field and gives refs their elements, as Mantine does', () => {
    const input = createRef<HTMLInputElement>();
    const heading = createRef<HTMLHeadingElement>();
    const page = render(
      <>
        <Lean.Title ref={heading}>Sign In</Lean.Title>
        <Lean.TextInput label="Code" ref={input} autoFocus value="" onChange={noop} />
      </>,
    );
    expect(document.activeElement).toBe(page.getByLabelText('Code'));
    expect(input.current).toBe(page.getByLabelText('Code'));
    expect(heading.current).toBe(page.getByRole('heading', { name: 'Sign In' }));
    page.unmount();
  });
});
