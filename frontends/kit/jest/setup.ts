import { configure } from '@testing-library/react';

// jsdom lacks a few browser APIs the component library reads.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
class NoopResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: NoopResizeObserver });
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

// The toasts' status region repeats each toast's text for screen readers, out of sight: text queries
// find what is seen, the visible toast. Tests of what is said read the region itself.
configure({ defaultIgnore: 'script, style, [data-toast-announcer] *' });
