import '@portico/kit/styles.css';
import { ApiClient, SessionStore } from '@portico/kit';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import type { ShellRuntime } from './app/services.js';
import { loadRuntimeConfig } from './config/runtime-config.js';

async function start() {
  const config = await loadRuntimeConfig();
  const session = new SessionStore();
  const client = new ApiClient({ baseUrl: config.apiUrl || window.location.origin, session });
  // Remotes register from the runtime configuration; their descriptors load in the background so the
  // sign-in page does not wait for them.
  const areas = import('./remotes/registry.js').then((m) => m.loadAreas(config.remotes));
  const runtime: ShellRuntime = { config, session, client, areas };
  const root = document.getElementById('root');
  if (root) createRoot(root).render(<App runtime={runtime} />);
}

void start();
