import { useCallback, useEffect, useRef, useState } from 'react';

/** Rows rendered at first, and added each time the end of the list comes into view. */
export const REVEAL_STEP = 100;

/**
 * How many of a long list's items to render: the first `step`, then `step` more each time the sentinel
 * after the list scrolls into view (or "Show more" is pressed). A folder of 10,000 files otherwise
 * mounts every row and its menu at once, which took the browser over 20 seconds and a gigabyte of memory.
 * Starts again at `step` when `listKey` changes (another folder or search).
 */
export function useRevealed(total: number, listKey: string, step = REVEAL_STEP) {
  const [revealed, setRevealed] = useState({ listKey, count: step });
  const count = revealed.listKey === listKey ? revealed.count : step;
  const showMore = useCallback(
    () =>
      setRevealed((current) => ({
        listKey,
        count: (current.listKey === listKey ? current.count : step) + step,
      })),
    [listKey, step],
  );
  const hasMore = total > count;

  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const target = sentinel.current;
    if (!hasMore || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) showMore();
      },
      // Start rendering the next rows a screen before the user reaches the end.
      { rootMargin: '0px 0px 100% 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasMore, showMore]);

  return { count: Math.min(count, total), hasMore, showMore, sentinel };
}
