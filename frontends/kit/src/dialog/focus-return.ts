import { createContext, useContext, useState } from 'react';

/**
 * Where focus goes back to when the dialog closes, best first: the element that had focus when `opened`
 * last became true (a dialog mounted already open included) or, when that was an item of a menu, the
 * menu's button, since the menu closes as its item opens the dialog (the ARIA menu button pattern).
 * Read as the dialog renders open, before anything inside it (an autofocused field, the focus trap)
 * can take focus. Mantine's Modal records its opener only when `opened` changes, so a dialog its caller
 * mounts open and unmounts to close would give focus back to nothing.
 */
export function useReturnTargets(opened: boolean): readonly Element[] {
  const [state, setState] = useState(() => ({ opened, targets: opened ? readReturnTargets() : [] }));
  if (state.opened !== opened) setState({ opened, targets: opened ? readReturnTargets() : [] });
  return state.targets;
}

function readReturnTargets(): Element[] {
  const opener = document.activeElement;
  if (!opener) return [];
  const menu = opener.closest('[role="menu"][id]');
  const menuButton = menu
    ? Array.from(document.querySelectorAll('[aria-controls]')).find((el) =>
        el.getAttribute('aria-controls')?.split(/\s+/).includes(menu.id),
      )
    : undefined;
  // The menu's button first: the item stays on the page while its menu's closing transition runs, takes
  // focus, and then goes with the menu, leaving focus on the page's body.
  return menuButton ? [menuButton, opener] : [opener];
}

/**
 * Whether focus went with the closing dialog `root` (null once unmounted): it is on nothing, on the
 * page's body, or still inside the dialog. Focus its caller moved elsewhere on purpose stays there.
 */
export function focusLeftWith(root: Element | null): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || (root?.contains(active) ?? false);
}

/**
 * Focuses the first of `targets` that takes focus, and says whether one did. Trying is the test: an
 * element removed from the page, disabled, hidden or inert does not take it.
 */
export function focusFirst(targets: ReadonlyArray<Element | null | undefined>): boolean {
  for (const target of targets) {
    if (!(target instanceof HTMLElement) || target === document.body || !target.isConnected) continue;
    target.focus({ preventScroll: true });
    if (document.activeElement === target) return true;
  }
  return false;
}

/**
 * Where an area's dialogs give focus back when neither their opener nor their own fallback can take it
 * (a bulk action's bar gone with the items it deleted): an element always on the area's page.
 */
export const DialogFocusFallback = createContext<(() => HTMLElement | null) | undefined>(undefined);

export const useDialogFocusFallback = () => useContext(DialogFocusFallback);
