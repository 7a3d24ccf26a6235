import { useMediaQuery } from '@portico/kit';

/** Phones and tablets: no pointer that hovers, only a finger. */
export const TOUCH_ONLY_QUERY = '(hover: none) and (pointer: coarse)';

/**
 * Whether this device only has touch: it has nothing to drag files from, and its browsers cannot pick a
 * folder (iOS and Android ignore `webkitdirectory`), so the drop areas say to choose files instead.
 */
export function useTouchOnly(): boolean {
  return useMediaQuery(TOUCH_ONLY_QUERY, false, { getInitialValueInEffect: false }) ?? false;
}
