import { frontendConfig } from '@portico/kit/build';

// The documents area: the file manager of advisors (/admin/:companyHash/documents) and clients
// (/documents/:companyHash), one component with role-based capabilities; the drop link's settings
// (/drop-link-settings) and the firm drop link's public page (/drop-link).
export default frontendConfig({
  dir: import.meta.dirname,
  name: 'documents',
  kind: 'remote',
  port: 8083,
  exposes: {
    './descriptor': './src/descriptor.ts',
    './Documents': './src/documents/DocumentsRoute.tsx',
    './DropLinkSettings': './src/drop-link/DropLinkSettingsRoute.tsx',
    './DropOff': './src/drop-link/DropOffRoute.tsx',
  },
});
