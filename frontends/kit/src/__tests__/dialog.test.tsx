import { describe, expect, it } from '@jest/globals';
import { Select } from '@mantine/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
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
