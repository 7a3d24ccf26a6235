import { Modal } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useDialogStack } from './DialogStack.js';
import { focusFirst, focusLeftWith, useDialogFocusFallback, useReturnTargets } from './focus-return.js';

export type DialogSize = 'narrow' | 'wide' | 'extra-wide' | 'full-screen' | 'tall';

export interface DialogProps {
  opened: boolean;
  onClose: () => void;
  title?: ReactNode;
  children?: ReactNode;
  /** narrow 420 px, wide 800 px, extra-wide 1140 px, full-screen, tall (wide, 90% of the height). */
  size?: DialogSize;
  /** Shows the dialog over the whole window regardless of size. */
  fullScreen?: boolean;
  /** Escape, the backdrop and the close button do not close it; only its own actions do. */
  persistent?: boolean;
  /** Shows the close button (default: when not persistent). */
  withCloseButton?: boolean;
  /**
   * Where focus goes when the dialog closes and the element focused when it opened cannot take it
   * back (removed or disabled; for a menu item, neither can its menu's button). When this gives nothing
   * focusable either, focus goes into the dialog below, if one is open, else to the area's fallback
   * (`DialogFocusFallback`).
   */
  returnFocusFallback?: () => HTMLElement | null;
  'aria-label'?: string;
}

const WIDTHS: Record<Exclude<DialogSize, 'full-screen'>, number> = {
  narrow: 420,
  wide: 800,
  'extra-wide': 1140,
  tall: 800,
};

const BASE_Z_INDEX = 300;

/**
 * The generic dialog of spec 1 s.2.10, on Mantine's Modal, with Escape handled by the dialog stack.
 * Closing or unmounting it gives focus back to the element focused when it opened (`useReturnTargets`).
 */
export function Dialog({
  opened,
  onClose,
  title,
  children,
  size = 'narrow',
  fullScreen,
  persistent = false,
  withCloseButton,
  returnFocusFallback,
  ...rest
}: DialogProps) {
  const stack = useDialogStack();
  const [depth, setDepth] = useState(0);
  const root = useRef<HTMLDivElement>(null);
  const returnTargets = useReturnTargets(opened);
  const areaFallback = useDialogFocusFallback();
  const latest = useRef({ onClose, persistent, returnFocusFallback, areaFallback });
  latest.current = { onClose, persistent, returnFocusFallback, areaFallback };

  useEffect(() => {
    if (!opened) return;
    const entry = stack.push({
      close: () => latest.current.onClose(),
      persistent: () => latest.current.persistent,
      element: () => root.current?.querySelector<HTMLElement>('[role="dialog"]') ?? null,
    });
    setDepth(entry.depth);
    return () => {
      const below = entry.below();
      entry.remove();
      // Focus that went with the dialog goes back to its opener, else to the caller's fallback, else
      // into the dialog below, else to the area's fallback: never to the page's body.
      if (focusLeftWith(root.current)) {
        const { returnFocusFallback: own, areaFallback: area } = latest.current;
        focusFirst([...returnTargets, own?.(), below?.element(), area?.()]);
      }
    };
  }, [opened, stack, returnTargets]);

  const full = fullScreen || size === 'full-screen';
  return (
    <Modal
      ref={root}
      opened={opened}
      onClose={persistent ? () => {} : onClose}
      title={title}
      fullScreen={full}
      size={full ? '100%' : WIDTHS[size as keyof typeof WIDTHS]}
      closeOnEscape={false}
      // The effect above gives focus back at every close; Mantine's, on `opened` changes only, would
      // then focus a second time.
      returnFocus={false}
      closeOnClickOutside={!persistent}
      withCloseButton={withCloseButton ?? !persistent}
      zIndex={BASE_Z_INDEX + depth * 10}
      centered={!full}
      data-dialog-size={full ? 'full-screen' : size}
      data-dialog-depth={depth}
      styles={size === 'tall' && !full ? { content: { minHeight: '90vh' } } : undefined}
      closeButtonProps={{ 'aria-label': 'Close' }}
      attributes={{
        // On the element with role dialog (Mantine's content), not its root, where ARIA does not allow it.
        ...(rest['aria-label'] ? { content: { 'aria-label': rest['aria-label'] } } : {}),
        // Mantine's header is a <header>: outside a section it would be a second banner landmark.
        header: { role: 'none' },
      }}
    >
      {children}
    </Modal>
  );
}
