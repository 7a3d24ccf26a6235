import { frontendConfig } from '@portico/kit/build';

// The admin area: advisor Profile Settings now, the firm back-office screens later.
export default frontendConfig({
  dir: import.meta.dirname,
  name: 'admin',
  kind: 'remote',
  port: 8082,
  exposes: {
    './descriptor': './src/descriptor.ts',
    './ProfileSettings': './src/profile-settings/ProfileSettingsRoute.tsx',
  },
});
