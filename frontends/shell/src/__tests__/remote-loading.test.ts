import { describe, expect, it } from '@jest/globals';
import { isLoadFailure } from '../remotes/registry.js';

describe("a remote's code that fails to load", () => {
  it('is told apart from a module that loaded and is wrong, which a new registration cannot mend', () => {
    const chunk = Object.assign(new Error('Loading chunk 412 failed.\n(missing: http://x/js/412.js)'), {
      name: 'ChunkLoadError',
    });
    for (const failure of [
      chunk,
      Object.assign(new Error('Failed to load script'), { name: 'ScriptNetworkError' }),
      new Error('Loading CSS chunk 9 failed.'),
      new Error('[ Federation Runtime ]: RUNTIME-003 Failed to get manifest.'),
      new TypeError('Failed to fetch'),
    ])
      expect([failure.message, isLoadFailure(failure)]).toEqual([failure.message, true]);
    for (const wrong of [
      new Error('client/Profile has no default export'),
      new TypeError("Cannot read properties of undefined (reading 'map')"),
      undefined,
      'a string',
    ])
      expect(isLoadFailure(wrong)).toBe(false);
  });
});
