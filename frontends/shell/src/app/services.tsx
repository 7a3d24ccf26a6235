import type { ApiClient, ReportError, SessionStore } from '@portico/kit';
import { createContext, useContext } from 'react';
import type { RuntimeConfig } from '../config/runtime-config.js';
import type { AreaStatus } from '../remotes/registry.js';

/** What the shell's own screens need, created once in bootstrap. */
export interface ShellRuntime {
  config: RuntimeConfig;
  client: ApiClient;
  session: SessionStore;
  /** Sends an error of the page to the gateway's log (see the kit's error-reports). */
  reportError: ReportError;
  /** Every configured remote with its descriptor or its load error. */
  areas: Promise<AreaStatus[]>;
}

export const ShellRuntimeContext = createContext<ShellRuntime | null>(null);

export function useShellRuntime(): ShellRuntime {
  const ctx = useContext(ShellRuntimeContext);
  if (!ctx) throw new Error('ShellRuntimeContext missing');
  return ctx;
}
