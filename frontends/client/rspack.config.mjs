import { frontendConfig } from '@portico/kit/build';

// The client area: the client profile and entity profile editors.
export default frontendConfig({
  dir: import.meta.dirname,
  name: 'client',
  kind: 'remote',
  port: 8081,
  exposes: {
    './descriptor': './src/descriptor.ts',
    './Profile': './src/profile/ProfileRoute.tsx',
  },
});
