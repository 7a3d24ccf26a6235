import { describe, expect, it } from '@jest/globals';
import { rememberedFirm, rememberFirm } from '../signin/remembered-firm.js';

/** A Storage whose every call throws, as a browser that blocks site data does. */
const refusing = new Proxy({} as Storage, {
  get: () => () => {
    throw new DOMException('blocked', 'SecurityError');
  },
});

describe('the remembered firm', () => {
  it('is the last firm remembered on this browser', () => {
    localStorage.clear();
    expect(rememberedFirm()).toBeUndefined();
    rememberFirm('demo-cpa');
    rememberFirm('other-cpa');
    expect(rememberedFirm()).toBe('other-cpa');
    rememberFirm('');
    expect(rememberedFirm()).toBe('other-cpa');
  });

  it('is nothing, without an error, when the browser refuses storage', () => {
    expect(() => rememberFirm('demo-cpa', refusing)).not.toThrow();
    expect(rememberedFirm(refusing)).toBeUndefined();
  });

  it('is nothing, without an error, when reading localStorage itself throws', () => {
    const own = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('blocked', 'SecurityError');
      },
    });
    try {
      expect(() => rememberFirm('demo-cpa')).not.toThrow();
      expect(rememberedFirm()).toBeUndefined();
    } finally {
      if (own) Object.defineProperty(globalThis, 'localStorage', own);
    }
  });
});
