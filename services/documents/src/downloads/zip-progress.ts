/** The least time between two progress signals of one zip: a folder of 2,000 receipts sends a few dozen. */
export const ZIP_PROGRESS_EVERY_MS = 250;

/**
 * Passes on how many of `total` files a zip holds, forward only and at most every `everyMs`; the first
 * count and the last (all of them) always pass, so the waiting user sees the zip start and end.
 */
export function throttledProgress(
  total: number,
  send: (filesDone: number) => void,
  everyMs = ZIP_PROGRESS_EVERY_MS,
  now: () => number = Date.now,
): (filesDone: number) => void {
  let lastSent = -1;
  let lastAt = Number.NEGATIVE_INFINITY;
  return (filesDone) => {
    if (filesDone <= lastSent) return;
    const at = now();
    if (lastSent >= 0 && filesDone < total && at - lastAt < everyMs) return;
    lastSent = filesDone;
    lastAt = at;
    send(filesDone);
  };
}
