import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef } from 'react';

interface Entry {
  id: number;
  close: () => void;
  persistent: () => boolean;
  /** The dialog's element: it takes focus when the dialog above closes with nowhere better to return it. */
  element: () => HTMLElement | null;
}

export type StackedDialog = Omit<Entry, 'id'>;

export interface DialogStackApi {
  /**
   * Puts a dialog on top of the stack; returns its depth (0 = first), a remover, and the open dialog
   * just below it (read when it closes: the one below may have closed meanwhile).
   */
  push(entry: StackedDialog): { depth: number; remove: () => void; below: () => StackedDialog | undefined };
}

const DialogStackContext = createContext<DialogStackApi | null>(null);

/**
 * Whether Escape pressed on `target` belongs to an open popup inside the dialog (a select's or
 * combobox's list, a menu, a popover): the popup closes itself, and the dialog stays open.
 */
function escapeClosesPopup(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  // Mantine marks a combobox target with an open list by data-mantine-stop-propagation.
  const popup = '[data-mantine-stop-propagation], [aria-expanded="true"], [role="menu"], [role="listbox"]';
  return target.closest(popup) !== null;
}

/**
 * Keeps the open dialogs in opening order. Escape closes only the topmost one, and not at all when
 * that one is persistent (spec 1 s.2.10: stacked dialogs close topmost first). An open popup inside
 * the dialog takes its Escape first.
 */
export function DialogStackProvider({ children }: { children: ReactNode }) {
  const stack = useRef<Entry[]>([]);
  const nextId = useRef(1);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || escapeClosesPopup(event.target)) return;
      const top = stack.current.at(-1);
      if (!top) return;
      event.preventDefault();
      event.stopPropagation();
      if (!top.persistent()) top.close();
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);

  const api = useMemo<DialogStackApi>(
    () => ({
      push(entry) {
        const id = nextId.current++;
        stack.current.push({ ...entry, id });
        return {
          depth: stack.current.length - 1,
          remove: () => {
            stack.current = stack.current.filter((e) => e.id !== id);
          },
          below: () => {
            const index = stack.current.findIndex((e) => e.id === id);
            return index > 0 ? stack.current[index - 1] : undefined;
          },
        };
      },
    }),
    [],
  );

  return <DialogStackContext.Provider value={api}>{children}</DialogStackContext.Provider>;
}

export function useDialogStack(): DialogStackApi {
  const ctx = useContext(DialogStackContext);
  if (!ctx) throw new Error('useDialogStack needs a DialogStackProvider (KitProvider includes one)');
  return ctx;
}
