import { useLayoutEffect, useState } from 'react';

/**
 * The rendered height of an element, known before the browser paints it: read in a layout effect when
 * the element mounts, then kept up to date by a ResizeObserver (wrapping, a dismissed banner). Layouts
 * that reserve room for a part of variable height use it so their first frame is already right; a
 * height measured a frame later (Mantine's useElementSize) shows one frame with the page under it.
 */
export function useElementHeight<T extends HTMLElement = HTMLDivElement>() {
  const [element, setElement] = useState<T | null>(null);
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    if (!element) return;
    const read = () => setHeight(element.getBoundingClientRect().height);
    read();
    const observer = new ResizeObserver(read);
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return { ref: setElement, height };
}
