// The shell's module-federation instance, created with the runtime API (the shell is built without the
// federation plugin, so its first screen does not load or run the federation runtime). The shell's own
// React, router, data-fetching client and kit are the shared singletons: already loaded, handed to the
// remotes as they are (`lib`), and with 'loaded-first' a remote takes them instead of its own copy.
import { init, type ModuleFederation } from '@module-federation/enhanced/runtime';
import * as Kit from '@portico/kit';
import sharedVersionReporter from '@portico/kit/build/runtime-plugin';
import * as KitSignIn from '@portico/kit/signin';
import * as ReactQuery from '@tanstack/react-query';
import * as React from 'react';
import * as JsxRuntime from 'react/jsx-runtime';
import * as ReactDom from 'react-dom';
import * as ReactDomClient from 'react-dom/client';
import * as ReactRouter from 'react-router';

/** Package name -> the exact version every build agrees on (the kit's build helpers, at build time). */
declare const __PORTICO_SHARED_VERSIONS__: Record<string, string>;

const modules: Record<string, unknown> = {
  react: React,
  'react/jsx-runtime': JsxRuntime,
  'react-dom': ReactDom,
  'react-dom/client': ReactDomClient,
  'react-router': ReactRouter,
  '@tanstack/react-query': ReactQuery,
  '@portico/kit': Kit,
  '@portico/kit/signin': KitSignIn,
};

let instance: ModuleFederation | undefined;

/** The federation instance, created on first use, with the shell's modules as the shared singletons. */
export function federation(): ModuleFederation {
  if (instance) return instance;
  const versions = __PORTICO_SHARED_VERSIONS__;
  const shared: Record<string, { version: string; lib: () => unknown; shareConfig: object }> = {};
  for (const [name, version] of Object.entries(versions)) {
    const lib = modules[name];
    if (!lib) throw new Error(`shared singleton ${name} is not provided by the shell`);
    shared[name] = {
      version,
      lib: () => lib,
      // As the remotes' builds declare them (the kit's build helpers): one copy, a mismatch is reported.
      shareConfig: { singleton: true, requiredVersion: version, strictVersion: false, eager: false },
    };
  }
  instance = init({
    name: 'shell',
    remotes: [],
    shared: shared as Parameters<typeof init>[0]['shared'],
    shareStrategy: 'loaded-first',
    plugins: [sharedVersionReporter()],
  });
  return instance;
}
