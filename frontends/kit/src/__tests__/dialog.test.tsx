import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Menu, Select } from '@mantine/core';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { Dialog, type DialogSize } from '../dialog/Dialog.js';
import { renderWithKit } from './render.js';

function Stacked({ persistentTop = false }: { persistentTop?: boolean }) {
  const [outer, setOuter] = useState(true);
  const [inner, setInner] = useState(true);
  return (
    <>
      <Dialog opened={outer} onClose={() => setOuter(false)} title="Outer" size="wide">
        outer body
      </Dialog>
      <Dialog opened={inner} onClose={() => setInner(false)} title="Inner" persistent={persistentTop}>
        inner body
        <button type="button" onClick={() => setInner(false)}>
          Done
        </button>
      </Dialog>
    </>
  );
}

function WithSelect() {
  const [opened, setOpened] = useState(true);
  return (
    <Dialog opened={opened} onClose={() => setOpened(false)} title="Pick">
      dialog body
      <Select label="Tax year" data={['2024', '2025']} comboboxProps={{ withinPortal: false }} />
    </Dialog>
  );
}

const pressEscape = () => fireEvent.keyDown(window, { key: 'Escape' });

describe('Dialog', () => {
  it('closes the topmost dialog first on Escape, then the one below', () => {
    renderWithKit(<Stacked />);
    expect(screen.queryByText('outer body')).not.toBeNull();
    expect(screen.queryByText('inner body')).not.toBeNull();
    pressEscape();
    expect(screen.queryByText('inner body')).toBeNull();
    expect(screen.queryByText('outer body')).not.toBeNull();
    pressEscape();
    expect(screen.queryByText('outer body')).toBeNull();
  });

  it('keeps a persistent dialog open on Escape, and the one below it too', () => {
    renderWithKit(<Stacked persistentTop />);
    pressEscape();
    expect(screen.queryByText('inner body')).not.toBeNull();
    expect(screen.queryByText('outer body')).not.toBeNull();
    fireEvent.click(screen.getByText('Done'));
    expect(screen.queryByText('inner body')).toBeNull();
    pressEscape();
    expect(screen.queryByText('outer body')).toBeNull();
  });

  it('lets Escape close an open list inside the dialog first, then the dialog', async () => {
    renderWithKit(<WithSelect />);
    const input = screen.getByLabelText('Tax year', { selector: 'input' });
    fireEvent.keyDown(input, { key: 'ArrowDown', code: 'ArrowDown' });
    await waitFor(() => expect(input.getAttribute('data-expanded')).toBe('true'));
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect(input.getAttribute('data-expanded')).toBeNull());
    expect(screen.queryByText('dialog body')).not.toBeNull();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.queryByText('dialog body')).toBeNull();
  });

  it('has no close button when persistent', () => {
    renderWithKit(
      <Dialog opened onClose={() => {}} title="Locked" persistent>
        body
      </Dialog>,
    );
    expect(document.querySelector('.mantine-Modal-close')).toBeNull();
  });

  it.each<[DialogSize, string]>([
    ['narrow', 'narrow'],
    ['wide', 'wide'],
    ['extra-wide', 'extra-wide'],
    ['tall', 'tall'],
    ['full-screen', 'full-screen'],
  ])('renders size %s', (size, expected) => {
    renderWithKit(
      <Dialog opened onClose={() => {}} title="Sized" size={size}>
        body
      </Dialog>,
    );
    expect(document.querySelector(`[data-dialog-size="${expected}"]`)).not.toBeNull();
  });

  it('goes full screen with the fullScreen option whatever the size', () => {
    renderWithKit(
      <Dialog opened onClose={() => {}} title="Big" size="narrow" fullScreen>
        body
      </Dialog>,
    );
    expect(document.querySelector('[data-dialog-size="full-screen"]')).not.toBeNull();
  });
});

/** A page button that mounts its dialog open and unmounts it to close it, as the file manager does. */
function MountedOpen({ openerStays = true }: { openerStays?: boolean }) {
  const [open, setOpen] = useState(false);
  const actions = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button type="button" ref={actions}>
        Actions
      </button>
      {/* When `openerStays` is false, the opener leaves the page once its dialog is open. */}
      {(openerStays || !open) && (
        <button type="button" onClick={() => setOpen(true)}>
          Rename
        </button>
      )}
      {open && (
        <Dialog
          opened
          onClose={() => setOpen(false)}
          title="Rename"
          returnFocusFallback={() => actions.current}
        >
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </Dialog>
      )}
    </>
  );
}

/** A row's actions menu whose item opens a dialog, as the file manager's rows do. */
function FromMenu() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Menu>
        <Menu.Target>
          <button type="button">Actions for Taxes.pdf</button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setOpen(true)}>Rename</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {open && (
        <Dialog opened onClose={() => setOpen(false)} title="Rename">
          <button type="button">Save</button>
        </Dialog>
      )}
    </>
  );
}

/** A dialog opened from the page, with a second one opened from a button inside it. */
function NestedOpen({ innerOpenerStays = true }: { innerOpenerStays?: boolean }) {
  const [outer, setOuter] = useState(false);
  const [inner, setInner] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOuter(true)}>
        Manage
      </button>
      {outer && (
        <Dialog opened onClose={() => setOuter(false)} title="Outer">
          {(innerOpenerStays || !inner) && (
            <button type="button" onClick={() => setInner(true)}>
              Edit tags
            </button>
          )}
          {inner && (
            <Dialog opened onClose={() => setInner(false)} title="Inner">
              <button type="button">Save tags</button>
            </Dialog>
          )}
        </Dialog>
      )}
    </>
  );
}

/** A dialog that stays mounted and opens and closes with `opened`, as the email confirmation does. */
function Toggled() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Change email
      </button>
      <Dialog opened={open} onClose={() => setOpen(false)} title="Confirm">
        <button type="button">OK</button>
      </Dialog>
    </>
  );
}

/** Waits for the focus trap of the dialog named `title` to take focus into it. */
async function focusMovesInto(title: string) {
  const dialog = screen.getByRole('dialog', { name: title });
  await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
}

describe('Dialog focus return', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('gives focus back to the button that mounted it open when Escape closes it', async () => {
    const user = userEvent.setup();
    renderWithKit(<MountedOpen />);
    const opener = screen.getByRole('button', { name: 'Rename' });
    await user.click(opener);
    await focusMovesInto('Rename');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it("gives focus to the caller's fallback when its opener left the page meanwhile", async () => {
    const user = userEvent.setup();
    renderWithKit(<MountedOpen openerStays={false} />);
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    await focusMovesInto('Rename');
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Actions' }));
  });

  it("gives focus to the menu's button when the dialog was opened from a menu item, gone with its menu", async () => {
    const user = userEvent.setup();
    renderWithKit(<FromMenu />);
    const actions = screen.getByRole('button', { name: 'Actions for Taxes.pdf' });
    await user.click(actions);
    await user.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    await focusMovesInto('Rename');
    expect(screen.queryByRole('menuitem')).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(actions);
  });

  it('gives focus back into the dialog below when the topmost closes, then to the page', async () => {
    const user = userEvent.setup();
    renderWithKit(<NestedOpen />);
    const manage = screen.getByRole('button', { name: 'Manage' });
    await user.click(manage);
    await focusMovesInto('Outer');
    const editTags = screen.getByRole('button', { name: 'Edit tags' });
    await user.click(editTags);
    await focusMovesInto('Inner');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(document.activeElement).toBe(editTags);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(manage);
  });

  it('gives focus to the dialog below, not the page, when the topmost has nowhere to return', async () => {
    const user = userEvent.setup();
    renderWithKit(<NestedOpen innerOpenerStays={false} />);
    await user.click(screen.getByRole('button', { name: 'Manage' }));
    await focusMovesInto('Outer');
    await user.click(screen.getByRole('button', { name: 'Edit tags' }));
    await focusMovesInto('Inner');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Inner' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('dialog', { name: 'Outer' }));
  });

  it('focuses its opener once when `opened` turns false, not a second time through Mantine', async () => {
    jest.useFakeTimers();
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    renderWithKit(<Toggled />);
    const opener = screen.getByRole('button', { name: 'Change email' });
    await user.click(opener);
    act(() => jest.runOnlyPendingTimers());
    expect(screen.getByRole('dialog', { name: 'Confirm' }).contains(document.activeElement)).toBe(true);
    const focus = jest.spyOn(opener, 'focus');
    await user.keyboard('{Escape}');
    // Past Mantine's own return, 10 ms after closing.
    act(() => jest.advanceTimersByTime(100));
    expect(document.activeElement).toBe(opener);
    expect(focus).toHaveBeenCalledTimes(1);
  });
});
