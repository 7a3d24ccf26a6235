/**
 * The default least time between two progress signals of one zip (`ZIP_PROGRESS_INTERVAL_MS`): a folder
 * of 2,000 receipts sends a few dozen.
 */
export const ZIP_PROGRESS_EVERY_MS = 250;

/**
 * Passes on how many of `total` files a zip holds, forward only and at most every `everyMs`. The first
 * count and the last (all of them) pass at once; a count that comes within the interval is passed at
 * its end, unless a later one has passed by then, so a slow file after a run of quick ones (a photo
 * being converted) shows the count reached before it, not one a run behind.
 */
export function throttledProgress(
  total: number,
  send: (filesDone: number) => void,
  everyMs: number,
): (filesDone: number) => void {
  let lastSent = -1;
  let lastAt = Number.NEGATIVE_INFINITY;
  let held = -1;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pass = (filesDone: number) => {
    clearTimeout(timer);
    timer = undefined;
    lastSent = filesDone;
    lastAt = Date.now();
    send(filesDone);
  };
  return (filesDone) => {
    if (filesDone <= lastSent || filesDone <= held) return;
    if (lastSent < 0 || filesDone >= total || Date.now() - lastAt >= everyMs) return pass(filesDone);
    held = filesDone;
    if (timer) return;
    timer = setTimeout(
      () => {
        timer = undefined;
        if (held > lastSent) pass(held);
      },
      lastAt + everyMs - Date.now(),
    );
    // A zip that failed meanwhile does not keep the process up for its last count.
    timer.unref?.();
  };
}
