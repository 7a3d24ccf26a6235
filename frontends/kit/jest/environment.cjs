// jsdom with the web platform globals Node already has and jsdom lacks (fetch's Response and friends,
// BroadcastChannel for cross-tab sign-out).
const { TestEnvironment } = require('jest-environment-jsdom');

class PorticoDomEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of [
      'Response',
      'Request',
      'Headers',
      'fetch',
      'BroadcastChannel',
      'TextEncoder',
      'TextDecoder',
      'structuredClone',
    ]) {
      if (typeof this.global[name] === 'undefined' && typeof globalThis[name] !== 'undefined') {
        this.global[name] = globalThis[name];
      }
    }
  }
}

module.exports = PorticoDomEnvironment;
